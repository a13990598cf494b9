/** Settings calls (docs/cabinet-rules.md#api-calls): public settings, plans and payment systems. */
import * as z from "zod/mini";
import { deferred } from "./deferred";
import { Currency, Language } from "./enums";
import { Decimal, NonNegativeDecimal } from "./money";

/** A text in each interface language. */
export const LocalizedText = deferred(() =>
  z.object({ en: z.string(), ru: z.string(), de: z.string(), kk: z.string() }),
);
export type LocalizedText = z.infer<typeof LocalizedText>;

/** Keys `GET /settings/{key}` serves; every other key is private to the server. */
export const PUBLIC_SETTING_KEYS = [
  "defaultInviter",
  "botUsername",
  "supportUrl",
  "referralLines",
  "subscriptionBenefit",
] as const;
export const PublicSettingKey = deferred(() => z.enum(PUBLIC_SETTING_KEYS));
export type PublicSettingKey = z.infer<typeof PublicSettingKey>;

export const SettingReply = deferred(() => z.object({ key: PublicSettingKey, value: z.unknown() }));
export type SettingReply = z.infer<typeof SettingReply>;

export const TelegramAuthAvailableReply = deferred(() => z.object({ available: z.boolean() }));
export type TelegramAuthAvailableReply = z.infer<typeof TelegramAuthAvailableReply>;

export const TechnicalWorkReply = deferred(() =>
  z.object({
    enabled: z.boolean(),
    /** Operator's note for users, in each language; null when none. */
    message: z.nullable(LocalizedText),
    /** When the work is expected to end (ISO 8601), if known. */
    until: z.nullable(z.iso.datetime({ offset: true })),
  }),
);
export type TechnicalWorkReply = z.infer<typeof TechnicalWorkReply>;

export const SubscriptionOption = deferred(() =>
  z.object({
    id: z.string(),
    title: LocalizedText,
    price: NonNegativeDecimal,
    currency: Currency,
    durationDays: z.int().check(z.positive()),
  }),
);
export type SubscriptionOption = z.infer<typeof SubscriptionOption>;
export const SubscriptionOptionsReply = deferred(() => z.array(SubscriptionOption));

export const Plan = deferred(() =>
  z.object({
    id: z.string(),
    name: LocalizedText,
    currency: Currency,
    /** Daily yield in percent of the principal, e.g. "1.2" = 1.2 % a day. */
    dailyYieldPercent: Decimal,
    durationDays: z.int().check(z.positive()),
    minAmount: NonNegativeDecimal,
    maxAmount: NonNegativeDecimal,
  }),
);
export type Plan = z.infer<typeof Plan>;
export const PlansReply = deferred(() => z.array(Plan));

export const PaymentSystem = deferred(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    currency: Currency,
    network: z.string(),
    refillEnabled: z.boolean(),
    withdrawalEnabled: z.boolean(),
    minWithdrawal: NonNegativeDecimal,
    maxWithdrawal: NonNegativeDecimal,
    /** Withdrawal fee in percent of the amount. */
    withdrawalFeePercent: NonNegativeDecimal,
    /**
     * The network's block explorer page of a transaction, `{tx}` standing for the hash (set by the operator,
     * the `explorers` setting); null when none is set. `explorerLink` (contract/home.ts) fills it in.
     */
    explorerUrl: z.optional(z.nullable(z.string())),
  }),
);
export type PaymentSystem = z.infer<typeof PaymentSystem>;
export const PaymentSystemsReply = deferred(() => z.array(PaymentSystem));

export { Language };
