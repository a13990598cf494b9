/**
 * Demo data for a fresh machine: plans, payment systems, news, subscription options, the house
 * account that invites by default, and a demo investor. Guarded: it runs only on a database
 * without users, so it never touches a database that is in use. Production does not seed unless
 * SEED_DEMO says so. The catalogue it applies is in catalog.ts.
 *
 * The demo investor gets some history, made through the real services (so the ledger holds:
 * every balance is the sum of its operations): a confirmed refill, a Start deposit that ran its
 * 30 days and paid out, a Standard deposit opened through a crypto case six days ago with its
 * accruals held, an exchange to TON, and a BTC refill still waiting.
 */
import { DAY_MS } from "@contract";
import { Catalog } from "@contract/operator";
import { count, sql } from "drizzle-orm";
import { type Clock, fixedClock, systemClock } from "../clock";
import type { Database } from "../db/client";
import { news, users } from "../db/schema";
import { hashPassword } from "../security/password";
import { runAccruals } from "../services/accruals";
import { applyCatalog } from "../services/catalog";
import { openDeposit } from "../services/deposits";
import { exchange } from "../services/exchange";
import { ensureHouseAccount } from "../services/partners";
import { confirmRefill, createRefill } from "../services/refills";
import { SETTINGS } from "../services/setting-defs";
import { ensureDefaultSettings } from "../services/settings";
import { updateWallets } from "../services/wallets";
import { DEMO_CATALOG, text } from "./catalog";

/** The demo investor; `npm start` prints these so anyone can sign in. */
export const DEMO_LOGIN = "demo";
export const DEMO_PASSWORD = "demo2026pass";
/** A fictional number (555-01xx is reserved for fiction); confirmed, like the e-mail. */
export const DEMO_PHONE = "+15550100100";
export const DEMO_EMAIL = "demo@example.com";
/** The house account new users are invited by when they come without a referral link. */
export const HOUSE_LOGIN = SETTINGS.defaultInviter.default;

export const DEMO_NEWS = [
  {
    daysAgo: 1,
    title: text("Partner programme", "Партнёрская программа", "Partnerprogramm", "Серіктестік бағдарлама"),
    body: text(
      "Invite friends with your referral link and earn 5%, 3% and 1% from three levels of partners.",
      "Приглашайте друзей по реферальной ссылке и получайте 5\u00a0%, 3\u00a0% и 1\u00a0% с трёх линий партнёров.",
      "Laden Sie Freunde über Ihren Empfehlungslink ein und erhalten Sie 5\u00a0%, 3\u00a0% und 1\u00a0% aus drei Partnerebenen.",
      "Достарыңызды реферал сілтемесі арқылы шақырып, серіктестердің үш деңгейінен 5\u00a0%, 3\u00a0% және 1\u00a0% табыс алыңыз.",
    ),
  },
  {
    daysAgo: 7,
    title: text("Refills in TON", "Пополнение в TON", "Einzahlungen in TON", "TON арқылы толықтыру"),
    body: text(
      "You can now top up your balance with Toncoin. The deposit address is shown in the Refill section.",
      "Теперь баланс можно пополнить в Toncoin. Адрес для перевода показан в разделе «Пополнение».",
      "Sie können jetzt in Toncoin einzahlen. Die Einzahlungsadresse finden Sie im Bereich „Einzahlung“.",
      "Енді балансты Toncoin арқылы толықтыруға болады. Аударым мекенжайы «Толықтыру» бөлімінде көрсетілген.",
    ),
  },
  {
    daysAgo: 14,
    title: text("Welcome to Kassa", "Добро пожаловать в Kassa", "Willkommen bei Kassa", "Kassa-ға қош келдіңіз"),
    body: text(
      "Your cabinet is ready: top up your balance, choose a plan and follow every accrual in one place.",
      "Ваш кабинет готов: пополните баланс, выберите тариф и следите за каждым начислением в одном месте.",
      "Ihr Konto ist bereit: Laden Sie Ihr Guthaben auf, wählen Sie einen Tarif und verfolgen Sie jede Gutschrift an einem Ort.",
      "Кабинетіңіз дайын: балансты толтырыңыз, тарифті таңдаңыз және әр есептеуді бір жерден бақылаңыз.",
    ),
  },
];

/** Whether anyone but the house account (made at every start) has an account: the database is in use. */
export async function hasInvestors(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users).where(sql`lower(${users.login}) <> lower(${HOUSE_LOGIN})`);
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
  if (await hasInvestors(db)) return false;
  const now = clock.now();
  const demoHash = await hashPassword(DEMO_PASSWORD);

  return db.transaction(async (tx) => {
    // Another process may have seeded between the check and here.
    if (await hasInvestors(tx)) return false;
    await ensureDefaultSettings(tx, clock);
    // The catalogue as an operator applies one (`kassa catalog apply`).
    await applyCatalog(tx, Catalog.parse(DEMO_CATALOG));
    await tx.insert(news).values(
      DEMO_NEWS.map(({ daysAgo, title, body }) => ({
        title,
        body,
        publishedAt: new Date(now.getTime() - daysAgo * DAY_MS),
      })),
    );
    await ensureHouseAccount(tx, clock);
    const [house] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.login}) = lower(${HOUSE_LOGIN})`);
    const [demo] = await tx
      .insert(users)
      .values({
        login: DEMO_LOGIN,
        passwordHash: demoHash,
        fullName: "Demo Investor",
        email: DEMO_EMAIL,
        emailConfirmedAt: now,
        phone: DEMO_PHONE,
        phoneConfirmedAt: now,
        language: "en",
        inviterId: house?.id ?? null,
        createdAt: new Date(now.getTime() - 45 * DAY_MS),
      })
      .returning({ id: users.id });
    if (demo) await seedDemoHistory(tx, demo.id, now);
    return true;
  });
}

/** The demo investor's history, through the real services, at moments before `now`. */
async function seedDemoHistory(db: Database, userId: string, now: Date): Promise<void> {
  const daysAgo = (days: number) => fixedClock(new Date(now.getTime() - days * DAY_MS));
  const usdt = await createRefill({ db, clock: daysAgo(40) }, userId, {
    paymentSystemId: "usdt-trc20",
    amount: "2000",
    txHash: "7c3f0a9e5b1d4c2f8e6a0b9d3c5e7f1a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d1e",
  });
  await confirmRefill({ db, clock: daysAgo(39.9) }, usdt.id);
  await openDeposit({ db, clock: daysAgo(38) }, userId, {
    planId: "start",
    currency: "USDT",
    amount: "200",
    autoInvest: false,
    caseId: "steady",
  });
  await openDeposit({ db, clock: daysAgo(6) }, userId, {
    planId: "standard",
    currency: "USDT",
    amount: "1000",
    autoInvest: false,
    caseId: "balanced",
  });
  await exchange({ db, clock: daysAgo(3) }, userId, { from: "USDT", to: "TON", amount: "100" });
  await createRefill({ db, clock: daysAgo(0.5) }, userId, {
    paymentSystemId: "btc",
    amount: "0.005",
    txHash: "b6f6991d03df0e2e04dafffcd6bc418aac66049e2cd74b80f14ac86db1e3f0da",
  });
  // The Start deposit ended 8 days ago and pays out; the Standard one holds 6 days of accruals.
  await runAccruals(db, fixedClock(now), { userId });
  await updateWallets({ db, clock: daysAgo(2) }, userId, {
    wallets: [{ paymentSystemId: "usdt-trc20", address: DEMO_WALLET }],
  });
  await seedDemoDownline(db, userId, now);
}

/** The demo investor's withdrawal wallet (a well-formed TRC20 address nobody holds the keys of). */
export const DEMO_WALLET = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

/**
 * Three lines under the demo investor, each member funded by a confirmed refill and opening a
 * deposit through the real services, so the demo earns referral, matching and the first turnover
 * bonus (1 050 USDT of turnover) and the ledger holds. They have no password (nobody signs in as them).
 */
export const DEMO_DOWNLINE = [
  { login: "alice", inviter: DEMO_LOGIN, daysAgo: 30, plan: "start", amount: "500" },
  { login: "bobby", inviter: DEMO_LOGIN, daysAgo: 12, plan: "start", amount: "150" },
  { login: "carol", inviter: "alice", daysAgo: 9, plan: "standard", amount: "300" },
  { login: "dave", inviter: "carol", daysAgo: 2, plan: "start", amount: "100" },
] as const;

async function seedDemoDownline(db: Database, demoId: string, now: Date): Promise<void> {
  const ids = new Map<string, string>([[DEMO_LOGIN, demoId]]);
  for (const member of DEMO_DOWNLINE) {
    const at = (days: number) => fixedClock(new Date(now.getTime() - days * DAY_MS));
    const [row] = await db
      .insert(users)
      .values({
        login: member.login,
        fullName: `${member.login[0]?.toUpperCase()}${member.login.slice(1)} Partner`,
        language: "en",
        inviterId: ids.get(member.inviter) ?? demoId,
        createdAt: at(member.daysAgo + 1).now(),
      })
      .returning({ id: users.id });
    if (!row) throw new Error("demo partner not created");
    ids.set(member.login, row.id);
    const refill = await createRefill({ db, clock: at(member.daysAgo + 0.5) }, row.id, {
      paymentSystemId: "usdt-trc20",
      amount: member.amount,
    });
    await confirmRefill({ db, clock: at(member.daysAgo + 0.4) }, refill.id);
    await openDeposit({ db, clock: at(member.daysAgo) }, row.id, {
      planId: member.plan,
      currency: "USDT",
      amount: member.amount,
      autoInvest: false,
    });
  }
}
