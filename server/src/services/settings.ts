/**
 * Server settings: every known key with its schema, default and visibility. Values live in the
 * `settings` table; a missing row reads as the default, and a write is checked against the schema
 * so the operator cannot store something the app cannot read.
 */

import {
  Currency,
  ExplorerTemplate,
  type LocalizedText,
  NonNegativeDecimal,
  PUBLIC_SETTING_KEYS,
  type PublicSettingKey,
  TechnicalWorkReply,
} from "@contract";
import { CODE_LENGTH } from "@contract/validation";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Clock } from "../clock";
import { type Awaitable, keptOf } from "../db/change-feed";
import type { Database } from "../db/client";
import { settings } from "../db/schema";
import { AppError } from "../errors";

export const CodeSettings = z.object({
  /** Digits in a verification code: the contract's CodeField accepts exactly CODE_LENGTH (6). */
  digits: z.literal(CODE_LENGTH),
  /** How long a code stays valid. */
  ttlSeconds: z.number().int().positive(),
  /** How long before a new code may be requested. */
  resendSeconds: z.number().int().nonnegative(),
  /** Wrong tries that void a code. */
  maxAttempts: z.number().int().positive(),
});
export type CodeSettings = z.infer<typeof CodeSettings>;

const PositiveDecimal = NonNegativeDecimal.check(z.refine((v) => !/^0(\.0+)?$/.test(v), { message: "positive" }));

/** USD price per coin and the exchange fee (`GET /user/exchange-rate`, `POST /user/exchange`). */
export const ExchangeRatesSetting = z.object({
  rates: z.object({ USDT: PositiveDecimal, BTC: PositiveDecimal, ETH: PositiveDecimal, TON: PositiveDecimal }),
  /** Percent of the converted value kept as the fee, 0 ≤ fee < 100. */
  feePercent: NonNegativeDecimal.check(z.refine((v) => /^\d{1,2}(\.\d+)?$/.test(v), { message: "below 100" })),
});
export type ExchangeRatesSetting = z.infer<typeof ExchangeRatesSetting>;

/** One turnover bonus: paid once when the downline's turnover in `currency` reaches `turnover`. */
export const TurnoverBonus = z.object({ turnover: PositiveDecimal, award: PositiveDecimal, currency: Currency });
export type TurnoverBonus = z.infer<typeof TurnoverBonus>;

/** Development only: how far the server's clock runs ahead of the real one (`kassa clock advance`). */
export const DevClockSetting = z.object({ offsetSeconds: z.number().int().nonnegative() });

interface SettingDef<S extends z.core.$ZodType> {
  /** Served by `GET /settings/{key}`. */
  public: boolean;
  schema: S;
  default: z.infer<S>;
}

const def = <S extends z.core.$ZodType>(d: SettingDef<S>) => d;

export const SETTINGS = {
  defaultInviter: def({ public: true, schema: z.string().min(1), default: "kassa" }),
  botUsername: def({ public: true, schema: z.string().regex(/^\w{5,32}$/), default: "KassaCabinetBot" }),
  supportUrl: def({ public: true, schema: z.url(), default: "https://t.me/KassaSupport" }),
  /**
   * What a subscription gives, in the operator's words in each language (`kassa settings set subscriptionBenefit
   * '{"en":"…","ru":"…","de":"…","kk":"…"}'`): shown with the options and in the confirmation. `{}`: not said
   * (nothing is shown). A JSON null cannot be stored: the column is NOT NULL.
   */
  subscriptionBenefit: def({
    public: true,
    schema: z.union([
      z.object({}).strict(),
      z.object({
        en: z.string().min(1).max(500),
        ru: z.string().min(1).max(500),
        de: z.string().min(1).max(500),
        kk: z.string().min(1).max(500),
      }),
    ]),
    default: {},
  }),
  /** Referral income per line (level 1, 2, 3…), in percent of the invitee's deposit. */
  referralLines: def({ public: true, schema: z.array(NonNegativeDecimal).max(10), default: ["5", "3", "1"] }),
  /** Percent of a direct invitee's referral income paid to the inviter as `matching`. */
  matchingPercent: def({
    public: false,
    schema: NonNegativeDecimal.check(z.refine((v) => /^\d{1,2}(\.\d+)?$/.test(v), { message: "below 100" })),
    default: "10",
  }),
  /** The four turnover bonuses (docs/api-money.md, "Partners"). */
  turnoverBonuses: def({
    public: false,
    schema: z.array(TurnoverBonus).length(4),
    default: [
      { turnover: "1000", award: "10", currency: "USDT" },
      { turnover: "5000", award: "75", currency: "USDT" },
      { turnover: "25000", award: "500", currency: "USDT" },
      { turnover: "100000", award: "2500", currency: "USDT" },
    ],
  }),
  telegramAuthAvailable: def({ public: false, schema: z.boolean(), default: true }),
  technicalWork: def({
    public: false,
    schema: TechnicalWorkReply,
    default: { enabled: false, message: null, until: null },
  }),
  codes: def({
    public: false,
    schema: CodeSettings,
    default: { digits: 6, ttlSeconds: 600, resendSeconds: 60, maxAttempts: 5 },
  }),
  exchangeRates: def({
    public: false,
    schema: ExchangeRatesSetting,
    default: { rates: { USDT: "1", BTC: "65000", ETH: "3200", TON: "5.5" }, feePercent: "1" },
  }),
  /**
   * Block explorer per payment system id (docs/api-home.md, "Home: statements, overview, income, inbox"): the
   * app links a refill's or withdrawal's transaction hash there. A payment system without one shows no link.
   */
  explorers: def({
    public: false,
    schema: z.record(z.string().min(1).max(64), ExplorerTemplate),
    default: {
      "usdt-trc20": "https://tronscan.org/#/transaction/{tx}",
      "usdt-erc20": "https://etherscan.io/tx/{tx}",
      btc: "https://mempool.space/tx/{tx}",
      eth: "https://etherscan.io/tx/{tx}",
      ton: "https://tonviewer.com/transaction/{tx}",
    },
  }),
  /** Ignored in production. Change it with `kassa clock advance|reset`, which also tells a running server. */
  devClock: def({ public: false, schema: DevClockSetting, default: { offsetSeconds: 0 } }),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = z.infer<(typeof SETTINGS)[K]["schema"]>;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

const publicKeys: readonly string[] = PUBLIC_SETTING_KEYS;
const isPublicSettingKey = (key: string): key is PublicSettingKey => publicKeys.includes(key);

/** Reads a setting; a missing or no longer valid row reads as the default. At once (not a promise) when kept. */
export function getSetting<K extends SettingKey>(db: Database, key: K): Awaitable<SettingValue<K>> {
  const kept = keptOf(db);
  // Frozen: every caller shares the kept value.
  if (kept)
    return kept.settings.get(key, async () => deepFreeze(await readSetting(db, key))) as Awaitable<SettingValue<K>>;
  return readSetting(db, key);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** `getSetting` from the table (the app keeps the result until the settings change, db/change-feed.ts). */
async function readSetting<K extends SettingKey>(db: Database, key: K): Promise<SettingValue<K>> {
  const setting = SETTINGS[key];
  const rows = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  const row = rows[0];
  if (!row) return setting.default as SettingValue<K>;
  const parsed = setting.schema.safeParse(row.value);
  return (parsed.success ? parsed.data : setting.default) as SettingValue<K>;
}

/** Writes a setting after checking it against its schema; throws VALIDATION_FAILED otherwise. */
export async function setSetting<K extends SettingKey>(
  db: Database,
  clock: Clock,
  key: K,
  value: unknown,
): Promise<SettingValue<K>> {
  const setting = SETTINGS[key];
  const parsed = setting.schema.safeParse(value);
  if (!parsed.success) {
    const fields = Object.fromEntries(
      parsed.error.issues.map((i) => [[key, ...i.path.map(String)].join("."), "required" as const]),
    );
    throw new AppError("VALIDATION_FAILED", { fields });
  }
  const now = clock.now();
  await db
    .insert(settings)
    .values({ key, value: parsed.data, isPublic: setting.public, updatedAt: now })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: parsed.data, isPublic: setting.public, updatedAt: now },
    });
  keptOf(db)?.feed.changing("settings");
  return parsed.data as SettingValue<K>;
}

/** Inserts the default of every setting that has no row yet (run at every start). */
export async function ensureDefaultSettings(db: Database, clock: Clock): Promise<void> {
  const now = clock.now();
  await db
    .insert(settings)
    .values(
      SETTING_KEYS.map((key) => ({
        key,
        value: SETTINGS[key].default,
        isPublic: SETTINGS[key].public,
        updatedAt: now,
      })),
    )
    .onConflictDoNothing({ target: settings.key });
}

/** `GET /settings/{key}`: public keys only; any other key is "not found", not "forbidden". */
export async function getPublicSetting(db: Database, key: string): Promise<{ key: PublicSettingKey; value: unknown }> {
  if (!isPublicSettingKey(key) || !isSettingKey(key) || !SETTINGS[key].public) throw new AppError("NOT_FOUND");
  return { key, value: await getSetting(db, key) };
}

export type TechnicalWork = z.infer<typeof TechnicalWorkReply>;

export interface MaintenanceChange {
  enabled: boolean;
  /** Expected end (ISO 8601 with offset), or null. */
  until?: string | null | undefined;
  /** The note for users; missing languages get the English (or first given) text. */
  message?: Partial<LocalizedText> | null | undefined;
}

/** Completes a partly translated note so every interface language shows something. */
export function completeLocalizedText(partial: Partial<LocalizedText>): LocalizedText | null {
  const fallback = partial.en ?? partial.ru ?? partial.de ?? partial.kk;
  if (fallback === undefined || fallback.trim() === "") return null;
  return {
    en: partial.en ?? fallback,
    ru: partial.ru ?? fallback,
    de: partial.de ?? fallback,
    kk: partial.kk ?? fallback,
  };
}

/** Switches the maintenance notice on or off (operator command). Turning it off clears the note. */
export async function setMaintenance(db: Database, clock: Clock, change: MaintenanceChange): Promise<TechnicalWork> {
  const value: TechnicalWork = change.enabled
    ? {
        enabled: true,
        message: change.message ? completeLocalizedText(change.message) : null,
        until: change.until ?? null,
      }
    : { enabled: false, message: null, until: null };
  return setSetting(db, clock, "technicalWork", value);
}
