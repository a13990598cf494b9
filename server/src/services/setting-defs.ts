/**
 * Every known setting: its schema, default and visibility, with no database behind it (the operator's commands name
 * and check keys with these without loading the database layer). Read and written by `settings.ts`.
 */
import { Currency, ExplorerTemplate, NonNegativeDecimal, TechnicalWorkReply } from "@contract";
import { CODE_LENGTH } from "@contract/validation";
import { z } from "zod";

const CodeSettings = z.object({
  /** Digits in a verification code: the contract's CodeField accepts exactly CODE_LENGTH (6). */
  digits: z.literal(CODE_LENGTH),
  /** How long a code stays valid. */
  ttlSeconds: z.number().int().positive(),
  /** How long before a new code may be requested. */
  resendSeconds: z.number().int().nonnegative(),
  /** Wrong tries that void a code. */
  maxAttempts: z.number().int().positive(),
});

const PositiveDecimal = NonNegativeDecimal.check(z.refine((v) => !/^0(\.0+)?$/.test(v), { message: "positive" }));

/** USD price per coin and the exchange fee (`GET /user/exchange-rate`, `POST /user/exchange`). */
const ExchangeRatesSetting = z.object({
  rates: z.object({ USDT: PositiveDecimal, BTC: PositiveDecimal, ETH: PositiveDecimal, TON: PositiveDecimal }),
  /** Percent of the converted value kept as the fee, 0 ≤ fee < 100. */
  feePercent: NonNegativeDecimal.check(z.refine((v) => /^\d{1,2}(\.\d+)?$/.test(v), { message: "below 100" })),
});

/** One turnover bonus: paid once when the downline's turnover in `currency` reaches `turnover`. */
const TurnoverBonus = z.object({ turnover: PositiveDecimal, award: PositiveDecimal, currency: Currency });

/** Development only: how far the server's clock runs ahead of the real one (`kassa clock advance`). */
const DevClockSetting = z.object({ offsetSeconds: z.number().int().nonnegative() });

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
