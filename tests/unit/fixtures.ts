/**
 * Test data in the contract's shapes, made by factories: the usual values here, and in each test only what it is
 * about (`aDeposit({ status: "closed", returned: "250" })`).
 */
import type {
  CurrencyAmounts,
  Deposit,
  LocalizedText,
  PaymentSystem,
  Plan,
  SecuritySettings,
  StatisticsReply,
} from "@contract";

export const START_NAME: LocalizedText = { en: "Start", ru: "Старт", de: "Start", kk: "Старт" };

/** The Start plan: 1.2 % a day for 30 days, 50 to 5,000 USDT. */
export function aPlan(overrides: Partial<Plan> = {}): Plan {
  return {
    id: "p-start",
    name: START_NAME,
    currency: "USDT",
    dailyYieldPercent: "1.2",
    durationDays: 30,
    minAmount: "50",
    maxAmount: "5000",
    ...overrides,
  };
}

/** 250 USDT on the Start plan, a week into its 30 days, its accruals held. */
export function aDeposit(overrides: Partial<Deposit> = {}): Deposit {
  return {
    id: "d1",
    planId: "p-start",
    planName: START_NAME,
    caseId: null,
    currency: "USDT",
    amount: "250",
    dailyYieldPercent: "1.2",
    durationDays: 30,
    dailyIncome: "3",
    totalAtEnd: "340",
    accruedHeld: "21",
    daysAccrued: 7,
    startedAt: "2026-01-01T00:00:00.000Z",
    endsAt: "2026-01-31T00:00:00.000Z",
    status: "active",
    autoInvest: false,
    closedAt: null,
    returned: null,
    forfeited: null,
    reinvestedInto: null,
    ...overrides,
  };
}

/** Tether on TRC20, open for refills and withdrawals (10 to 1,000, a 1 % fee). */
export function aPaymentSystem(overrides: Partial<PaymentSystem> = {}): PaymentSystem {
  return {
    id: "usdt-trc20",
    name: "Tether",
    currency: "USDT",
    network: "TRC20",
    refillEnabled: true,
    withdrawalEnabled: true,
    minWithdrawal: "10",
    maxWithdrawal: "1000",
    withdrawalFeePercent: "1",
    ...overrides,
  };
}

/** Codes go to the confirmed e-mail, SMS could take them, the Telegram chat is linked (not chosen for codes). */
export function aSecuritySettings(overrides: Partial<SecuritySettings> = {}): SecuritySettings {
  return {
    codeChannel: "email",
    codesGoTo: "email",
    destination: "d***@example.com",
    channels: [
      { channel: "telegram", available: false },
      { channel: "email", available: true, destination: "d***@example.com" },
      { channel: "sms", available: true, destination: "+7******0000" },
    ],
    chatNotifications: true,
    chatLinked: true,
    ...overrides,
  };
}

/** 0 in every currency. */
export const NOTHING: CurrencyAmounts = { USDT: "0", BTC: "0", ETH: "0", TON: "0" };

/** A newcomer's statistics in USDT: nothing earned, no referral, no deposit ever. */
export function aStatistics(overrides: Partial<StatisticsReply> = {}): StatisticsReply {
  return {
    currentCurrency: "USDT",
    earned: NOTHING,
    referrals: 0,
    activeDeposits: 0,
    amountOnDeposit: NOTHING,
    everDeposited: false,
    ...overrides,
  };
}
