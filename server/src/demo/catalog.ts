/**
 * The demo's catalogue: plans, payment systems, subscription options and crypto cases, as data (no database behind
 * it: `kassa catalog example` prints it without loading the database layer). `seed.ts` applies it to a fresh database.
 *
 * The deposit addresses are placeholders in the right format; nobody holds their keys.
 */
import type { LocalizedText } from "@contract";
import type { CatalogInput } from "@contract/operator";

/** A text in the four languages. */
export const text = (en: string, ru: string, de: string, kk: string): LocalizedText => ({ en, ru, de, kk });

const DEMO_PLANS: NonNullable<CatalogInput["plans"]> = [
  {
    id: "start",
    name: text("Start", "Старт", "Start", "Старт"),
    currency: "USDT",
    dailyYieldPercent: "1.0",
    durationDays: 30,
    minAmount: "10",
    maxAmount: "1000",
    sort: 10,
  },
  {
    id: "standard",
    name: text("Standard", "Стандарт", "Standard", "Стандарт"),
    currency: "USDT",
    dailyYieldPercent: "1.5",
    durationDays: 60,
    minAmount: "100",
    maxAmount: "10000",
    sort: 20,
  },
  {
    id: "premium",
    name: text("Premium", "Премиум", "Premium", "Премиум"),
    currency: "USDT",
    dailyYieldPercent: "2.0",
    durationDays: 90,
    minAmount: "1000",
    maxAmount: "100000",
    sort: 30,
  },
];

const EVM_ADDRESS = "^0x[0-9a-fA-F]{40}$";

export const DEMO_PAYMENT_SYSTEMS: NonNullable<CatalogInput["paymentSystems"]> = [
  {
    id: "usdt-trc20",
    name: "USDT (TRC20)",
    currency: "USDT",
    network: "TRC20",
    minWithdrawal: "10",
    maxWithdrawal: "50000",
    withdrawalFeePercent: "1",
    address: "TG7BEHZQhE8U8veBu7ERWNqdCQKpH4P8FP",
    addressPattern: "^T[1-9A-HJ-NP-Za-km-z]{33}$",
    sort: 10,
  },
  {
    id: "usdt-erc20",
    name: "USDT (ERC20)",
    currency: "USDT",
    network: "ERC20",
    minWithdrawal: "50",
    maxWithdrawal: "50000",
    withdrawalFeePercent: "2",
    address: "0xe2c734a545dbc2888025101c5be1dc3742f234de",
    addressPattern: EVM_ADDRESS,
    sort: 20,
  },
  {
    id: "btc",
    name: "Bitcoin",
    currency: "BTC",
    network: "Bitcoin",
    minWithdrawal: "0.0005",
    maxWithdrawal: "5",
    withdrawalFeePercent: "0.5",
    address: "bc1qyyeef7s47n527a39t363tntswv70mqjxqth3hf",
    addressPattern: "^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$",
    sort: 30,
  },
  {
    id: "eth",
    name: "Ethereum",
    currency: "ETH",
    network: "ERC20",
    minWithdrawal: "0.01",
    maxWithdrawal: "100",
    withdrawalFeePercent: "1",
    address: "0xf9f146554c43efed8335bdd85a7dcc4126670c22",
    addressPattern: EVM_ADDRESS,
    sort: 40,
  },
  {
    id: "ton",
    name: "Toncoin",
    currency: "TON",
    network: "TON",
    minWithdrawal: "5",
    maxWithdrawal: "100000",
    withdrawalFeePercent: "0.5",
    address: "UQOCX54f-k-0H-0Ng9fPd0hmx2mrCiI0kX1Ul0icVKV6QGBE",
    addressPattern: "^([EU]Q[A-Za-z0-9_-]{46}|-?\\d:[0-9a-fA-F]{64})$",
    sort: 50,
  },
];

const DEMO_SUBSCRIPTION_OPTIONS: NonNullable<CatalogInput["subscriptionOptions"]> = [
  {
    id: "month",
    title: text("Monthly subscription", "Подписка на месяц", "Monatsabo", "Айлық жазылым"),
    price: "10",
    currency: "USDT",
    durationDays: 30,
    sort: 10,
  },
  {
    id: "year",
    title: text("Annual subscription", "Подписка на год", "Jahresabo", "Жылдық жазылым"),
    price: "100",
    currency: "USDT",
    durationDays: 365,
    sort: 20,
  },
];

/** Curated bundles of the demo plans (docs/database.md, "Demo data"). */
const DEMO_CRYPTO_CASES: NonNullable<CatalogInput["cryptoCases"]> = [
  {
    id: "steady",
    name: text("Steady start", "Спокойный старт", "Ruhiger Start", "Сабырлы бастау"),
    description: text(
      "Short terms and small amounts: the first month of the Start plan.",
      "Короткий срок и небольшие суммы: первый месяц на тарифе «Старт».",
      "Kurze Laufzeit und kleine Beträge: der erste Monat im Tarif Start.",
      "Қысқа мерзім және шағын сомалар: «Старт» тарифіндегі алғашқы ай.",
    ),
    riskLevel: "low",
    planIds: ["start"],
    sort: 10,
  },
  {
    id: "balanced",
    name: text("Balanced", "Сбалансированный", "Ausgewogen", "Теңгерімді"),
    description: text(
      "Start and Standard side by side: a short term for liquidity, a longer one for yield.",
      "«Старт» и «Стандарт» вместе: короткий срок для ликвидности, длинный для доходности.",
      "Start und Standard nebeneinander: eine kurze Laufzeit für Liquidität, eine längere für Rendite.",
      "«Старт» пен «Стандарт» қатар: өтімділік үшін қысқа мерзім, табыс үшін ұзағырақ мерзім.",
    ),
    riskLevel: "medium",
    planIds: ["start", "standard"],
    sort: 20,
  },
  {
    id: "growth",
    name: text("Growth", "Рост", "Wachstum", "Өсу"),
    description: text(
      "Standard and Premium: larger amounts held longer for the highest daily yield.",
      "«Стандарт» и «Премиум»: крупные суммы на долгий срок ради наибольшей дневной доходности.",
      "Standard und Premium: größere Beträge, länger angelegt, für die höchste Tagesrendite.",
      "«Стандарт» және «Премиум»: ең жоғары күндік табыс үшін ірі сомалар ұзақ мерзімге.",
    ),
    riskLevel: "high",
    planIds: ["standard", "premium"],
    sort: 30,
  },
];

/** The demo catalogue as `kassa catalog apply` reads it (`kassa catalog example` prints it). */
export const DEMO_CATALOG: CatalogInput = {
  plans: DEMO_PLANS,
  paymentSystems: DEMO_PAYMENT_SYSTEMS,
  subscriptionOptions: DEMO_SUBSCRIPTION_OPTIONS,
  cryptoCases: DEMO_CRYPTO_CASES,
};

/** News items, newest first; `daysAgo` places them before the seeding moment. */
