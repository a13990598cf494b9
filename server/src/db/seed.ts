/**
 * Demo data for a fresh machine: plans, payment systems, news, subscription options, the house
 * account that invites by default, and a demo investor. Guarded: it runs only on a database
 * without users, so it never touches a database that is in use. Production does not seed unless
 * SEED_DEMO says so.
 *
 * The deposit addresses are placeholders in the right format; nobody holds their keys.
 */
import type { LocalizedText } from "@contract";
import { count, sql } from "drizzle-orm";
import { type Clock, systemClock } from "../clock";
import { hashPassword } from "../security/password";
import { ensureDefaultSettings, SETTINGS } from "../services/settings";
import type { Database } from "./client";
import { news, paymentSystems, plans, subscriptionOptions, users } from "./schema";

/** The demo investor; `npm start` prints these so anyone can sign in. */
export const DEMO_LOGIN = "demo";
export const DEMO_PASSWORD = "demo2026pass";
/** A fictional number (555-01xx is reserved for fiction); confirmed, like the e-mail. */
export const DEMO_PHONE = "+15550100100";
export const DEMO_EMAIL = "demo@example.com";
/** The house account new users are invited by when they come without a referral link. */
export const HOUSE_LOGIN = SETTINGS.defaultInviter.default;

const text = (en: string, ru: string, de: string, kk: string): LocalizedText => ({ en, ru, de, kk });

export const DEMO_PLANS = [
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

export const DEMO_PAYMENT_SYSTEMS = [
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

export const DEMO_SUBSCRIPTION_OPTIONS = [
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

const DAY_MS = 86_400_000;

/** News items, newest first; `daysAgo` places them before the seeding moment. */
export const DEMO_NEWS = [
  {
    daysAgo: 1,
    title: text("Partner programme", "Партнёрская программа", "Partnerprogramm", "Серіктестік бағдарлама"),
    body: text(
      "Invite friends with your referral link and earn 5 %, 3 % and 1 % from three lines of partners.",
      "Приглашайте друзей по реферальной ссылке и получайте 5 %, 3 % и 1 % с трёх линий партнёров.",
      "Laden Sie Freunde über Ihren Empfehlungslink ein und erhalten Sie 5 %, 3 % und 1 % aus drei Partnerebenen.",
      "Достарыңызды реферал сілтемесі арқылы шақырып, серіктестердің үш желісінен 5 %, 3 % және 1 % табыс алыңыз.",
    ),
  },
  {
    daysAgo: 7,
    title: text("Refills in TON", "Пополнение в TON", "Aufladen mit TON", "TON арқылы толтыру"),
    body: text(
      "You can now top up your balance with Toncoin. The deposit address is shown in the Refill section.",
      "Теперь баланс можно пополнить в Toncoin. Адрес для перевода показан в разделе «Пополнение».",
      "Sie können Ihr Guthaben jetzt mit Toncoin aufladen. Die Einzahlungsadresse finden Sie im Bereich „Aufladen“.",
      "Енді балансты Toncoin арқылы толтыруға болады. Аударым мекенжайы «Толтыру» бөлімінде көрсетілген.",
    ),
  },
  {
    daysAgo: 14,
    title: text("Welcome to Kassa", "Добро пожаловать в Kassa", "Willkommen bei Kassa", "Kassa-ға қош келдіңіз"),
    body: text(
      "Your cabinet is ready: top up your balance, choose a plan and follow every accrual in one place.",
      "Ваш кабинет готов: пополните баланс, выберите тариф и следите за каждым начислением в одном месте.",
      "Ihr Kabinett ist bereit: Laden Sie Ihr Guthaben auf, wählen Sie einen Tarif und verfolgen Sie jede Gutschrift an einem Ort.",
      "Кабинетіңіз дайын: балансты толтырыңыз, тарифті таңдаңыз және әр есептеуді бір жерден бақылаңыз.",
    ),
  },
];

export async function hasUsers(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return (row?.n ?? 0) > 0;
}

/** Whether the demo investor exists (the start script prints the demo login then). */
export async function hasDemoUser(db: Database): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(sql`lower(${users.login}) = ${DEMO_LOGIN}`).limit(1);
  return rows.length > 0;
}

/**
 * Fills an empty database with the demo data. Returns true when it seeded, false when the
 * database already has users (then it changes nothing).
 */
export async function seedDemo(db: Database, clock: Clock = systemClock): Promise<boolean> {
  if (await hasUsers(db)) return false;
  const now = clock.now();
  const demoHash = await hashPassword(DEMO_PASSWORD);

  return db.transaction(async (tx) => {
    // Another process may have seeded between the check and here.
    if (await hasUsers(tx)) return false;
    await ensureDefaultSettings(tx, clock);
    await tx
      .insert(plans)
      .values(DEMO_PLANS.map((p) => ({ ...p, active: true })))
      .onConflictDoNothing();
    await tx
      .insert(paymentSystems)
      .values(DEMO_PAYMENT_SYSTEMS.map((s) => ({ ...s, refillEnabled: true, withdrawalEnabled: true })))
      .onConflictDoNothing();
    await tx.insert(subscriptionOptions).values(DEMO_SUBSCRIPTION_OPTIONS).onConflictDoNothing();
    await tx.insert(news).values(
      DEMO_NEWS.map(({ daysAgo, title, body }) => ({
        title,
        body,
        publishedAt: new Date(now.getTime() - daysAgo * DAY_MS),
      })),
    );
    const [house] = await tx
      .insert(users)
      .values({ login: HOUSE_LOGIN, fullName: "Kassa", language: "ru", createdAt: now })
      .returning({ id: users.id });
    await tx.insert(users).values({
      login: DEMO_LOGIN,
      passwordHash: demoHash,
      fullName: "Demo Investor",
      email: DEMO_EMAIL,
      emailConfirmedAt: now,
      phone: DEMO_PHONE,
      phoneConfirmedAt: now,
      language: "en",
      inviterId: house?.id ?? null,
      createdAt: now,
    });
    return true;
  });
}
