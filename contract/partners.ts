/**
 * Partners (docs/cabinet-rules.md#partners; docs/decisions.md#d6-partners): the caller's referral tree, what
 * each referral brought, and the four turnover bonuses. Amounts are decimal strings per currency, never
 * converted (the app shows the current currency's figure).
 */
import * as z from "zod/mini";
import { CurrencyAmounts } from "./balance";
import { deferred } from "./deferred";
import { Currency } from "./enums";
import { NonNegativeDecimal } from "./money";
import { PageQuery, pageOf } from "./paging";
import { text } from "./validation";

export const REFERRAL_SORTS = ["login", "investments", "profit", "line", "createdAt"] as const;
export const ReferralSort = deferred(() => z.enum(REFERRAL_SORTS));
export type ReferralSort = z.infer<typeof ReferralSort>;
export const SortDir = deferred(() => z.enum(["asc", "desc"]));
export type SortDir = z.infer<typeof SortDir>;

/**
 * `GET /user/referrals`. `search`: a login substring, any letter case. `line`: one line only
 * (1 … the number of lines in the `referralLines` setting). Sorting by `investments` or `profit`
 * orders by the USD value at the current exchange rates; `createdAt` by registration. Ties sort by
 * login (A to Z for the money sorts and `line`, in the sort's direction for `createdAt`).
 */
export const ReferralsQuery = deferred(() =>
  z.extend(PageQuery, {
    sort: z._default(ReferralSort, "createdAt"),
    sortDir: z._default(SortDir, "desc"),
    search: z.optional(text().check(z.trim(), z.maxLength(64))),
    line: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(10))),
    /**
     * The previous page's `next` (a member's id): the page starts after that member in this order
     * (keyset paging, as fast deep in a large team as on page 1). `page` then only numbers the page.
     */
    after: z.optional(z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i))),
  }),
);
export type ReferralsQuery = z.infer<typeof ReferralsQuery>;

export const Referral = deferred(() =>
  z.object({
    id: z.string(),
    login: z.string(),
    /** 1 = invited by the caller, 2 = invited by one of those, … */
    line: z.int().check(z.gte(1)),
    /** Σ principal of the referral's deposits (any status), per currency. */
    personalInvestments: CurrencyAmounts,
    /** What the referral's deposits brought the caller (referral + matching income), per currency. */
    profit: CurrencyAmounts,
    /** ISO 8601. */
    registeredAt: z.string(),
  }),
);
export type Referral = z.infer<typeof Referral>;

export const ReferralLineTotals = deferred(() =>
  z.object({
    line: z.int().check(z.gte(1)),
    count: z.int().check(z.nonnegative()),
    profit: CurrencyAmounts,
  }),
);

export const ReferralTotals = deferred(() =>
  z.object({
    /** Every referral within the lines (unfiltered). */
    referrals: z.int().check(z.nonnegative()),
    /** One entry per line of the `referralLines` setting, also for empty lines. */
    byLine: z.array(ReferralLineTotals),
    /** All referral and matching income of the caller, per currency. */
    profit: CurrencyAmounts,
    /** Σ principal of the deposits the downline opened within the lines, per currency (the bonuses' measure). */
    turnover: CurrencyAmounts,
  }),
);
export type ReferralTotals = z.infer<typeof ReferralTotals>;

export const ReferralsReply = deferred(() =>
  z.extend(pageOf(Referral), {
    totals: ReferralTotals,
    /** Pass as `after` for the page that follows; null on the last page. */
    next: z.optional(z.nullable(z.string())),
  }),
);
export type ReferralsReply = z.infer<typeof ReferralsReply>;

/** `GET /user/referral/:id`: one member of the caller's downline; anyone else is 404. */
export const ReferralDetail = deferred(() =>
  z.extend(Referral, {
    /** The login of the referral's inviter (the caller for line 1). */
    inviter: z.nullable(z.string()),
    /** Users the referral invited directly. */
    invited: z.int().check(z.nonnegative()),
  }),
);
export type ReferralDetail = z.infer<typeof ReferralDetail>;

/** `GET /user/bonus`: the four turnover bonuses and the caller's progress. */
export const Bonus = deferred(() =>
  z.object({
    /** 1 … 4. */
    index: z.int().check(z.gte(1)),
    currency: Currency,
    /** The turnover to reach, in `currency`. */
    turnover: NonNegativeDecimal,
    award: NonNegativeDecimal,
    /** The caller's current turnover in `currency`. */
    progress: NonNegativeDecimal,
    reached: z.boolean(),
    paid: z.boolean(),
    paidAt: z.nullable(z.string()),
  }),
);
export type Bonus = z.infer<typeof Bonus>;
export const BonusReply = deferred(() => z.array(Bonus));
export type BonusReply = z.infer<typeof BonusReply>;

/**
 * An invitation the bot prepared for the caller (Bot API 8.0 `savePreparedInlineMessage`): the Mini App hands its
 * id to Telegram (`web_app_send_prepared_message`), which lets the investor pick a chat to send it to.
 */
export const PartnerInviteReply = deferred(() => z.object({ preparedMessageId: z.string().check(z.minLength(1)) }));
export type PartnerInviteReply = z.infer<typeof PartnerInviteReply>;
