/**
 * A withdrawal wallet changes only with a code: a new or changed address is stored once the code
 * sent to the investor's code channel for exactly that address is entered (its own purpose, `wallet`,
 * so its message names a wallet change), and the investor is then told through that channel and by a
 * `wallet_changed` notification, in the app and once in the Telegram chat. Removals and unchanged
 * addresses need no code; wrong codes share the withdrawal codes' budgets.
 */
import { type Language, routes } from "@contract";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { chatOutbox, users, verificationCodes } from "../../server/src/db/schema";
import { codeMessageText } from "../../server/src/delivery/code-sender";
import { WITHDRAWAL_WRONG_CODES_PER_DAY } from "../../server/src/services/withdrawals";
import { callRoute, injectRoute, lastCode, outbox, serverForTests, type TestServer } from "./helpers";
import { type Investor, newInvestor, TRC20_WALLET } from "./money";

const TON_WALLET = "UQOCX54f-k-0H-0Ng9fPd0hmx2mrCiI0kX1Ul0icVKV6QGBE";
const OTHER_TRC20 = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";

let server: TestServer;
serverForTests({ env: { RATE_LIMIT_WITHDRAWAL_CODE_ACCOUNT: "4/3600" } }, (made) => {
  server = made;
});

const save = (investor: Investor, wallets: { paymentSystemId: string; address: string }[], code?: string) =>
  injectRoute(server, routes.updateWallets, {
    token: investor.token,
    body: code === undefined ? { wallets } : { wallets, code },
  });

const stored = async (investor: Investor) =>
  (await injectRoute(server, routes.wallets, { token: investor.token })).body;

const notices = (investor: Investor) => server.app.devOutbox?.notices(investor.login) ?? [];

const notifications = async (investor: Investor) =>
  (await callRoute(server, "notifications", { token: investor.token })).items;

const chatMessages = (investor: Investor) =>
  server.handle.db.select().from(chatOutbox).where(eq(chatOutbox.userId, investor.id));

/** Links the investor to a Telegram chat, with the code channel and chat notifications given. */
const linkTelegram = (investor: Investor, set: Partial<typeof users.$inferInsert> = {}) =>
  server.handle.db
    .update(users)
    .set({ telegramId: 700_000_000 + Math.floor(Math.random() * 1e8), ...set })
    .where(eq(users.id, investor.id));

/** A code other than `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("a withdrawal wallet", () => {
  it("is added only with the code sent for it, and the investor is told", async () => {
    const investor = await newInvestor(server.handle.db, systemClock);
    const wallet = [{ paymentSystemId: "usdt-trc20", address: TRC20_WALLET }];

    const asked = await save(investor, wallet);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ wallets: [], walletCode: { message: "Request successfully sent" } });
    expect(await stored(investor)).toEqual([]);
    const code = await lastCode(server, investor.login, "wallet");
    // Its own purpose: the message names a wallet change, not a withdrawal.
    const [sent] = await outbox(server, investor.login);
    expect(sent).toMatchObject({ purpose: "wallet", code });
    const message = (language: Language) =>
      codeMessageText({
        login: investor.login,
        language,
        channel: "telegram",
        telegramId: null,
        email: null,
        phone: null,
        purpose: sent?.purpose ?? "withdrawal",
        code,
        expiresInSeconds: 600,
      });
    expect(message("en")).toContain(`your withdrawal wallet change code is <code>${code}</code>`);
    expect(message("ru")).toContain(`(смена кошелька для вывода)`);
    expect(message("de")).toContain(`Ihr Code für die Änderung der Auszahlungs-Wallet lautet <code>${code}</code>`);
    expect(message("kk")).toContain(`(шығаруға арналған әмиянды өзгерту)`);

    const mismatch = await save(investor, wallet, wrong(code));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ code: "CODE_MISMATCH", params: { attemptsLeft: "4" } });
    // The code confirms exactly the address it was sent for.
    const other = await save(investor, [{ paymentSystemId: "usdt-trc20", address: OTHER_TRC20 }], code);
    expect(other.body).toMatchObject({ code: "CODE_INVALID" });
    expect(await stored(investor)).toEqual([]);
    expect(notices(investor)).toEqual([]);

    const confirmed = await save(investor, wallet, code);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ wallets: wallet, walletCode: null });
    expect(await stored(investor)).toEqual(wallet);
    const [notice] = notices(investor);
    expect(notice?.text).toContain("withdrawal wallet was changed");
    expect(notice?.text).toContain(`USDT (TRC20): ${TRC20_WALLET}`);
    // Used up: the same code does not store another change.
    const again = await save(investor, [{ paymentSystemId: "usdt-trc20", address: OTHER_TRC20 }], code);
    expect(again.body).toMatchObject({ code: "CODE_INVALID" });
  });

  it("is changed only with a code; unchanged addresses and removals need none", async () => {
    const investor = await newInvestor(server.handle.db, systemClock);
    const first = [{ paymentSystemId: "usdt-trc20", address: TRC20_WALLET }];
    await save(investor, first);
    await save(investor, first, await lastCode(server, investor.login, "wallet"));
    expect(await stored(investor)).toEqual(first);

    // The same address again: nothing to confirm.
    expect((await save(investor, first)).body).toEqual({ wallets: first, walletCode: null });

    const changed = [{ paymentSystemId: "usdt-trc20", address: OTHER_TRC20 }];
    const asked = await save(investor, changed);
    expect(asked.body).toMatchObject({ wallets: first, walletCode: { resendAfterSeconds: 60 } });
    expect(await stored(investor)).toEqual(first);
    await save(investor, changed, await lastCode(server, investor.login, "wallet"));
    expect(await stored(investor)).toEqual(changed);
    expect(notices(investor)).toHaveLength(2);

    const sentBefore = (await outbox(server, investor.login)).length;
    const removed = await save(investor, [{ paymentSystemId: "usdt-trc20", address: "" }]);
    expect(removed.body).toEqual({ wallets: [], walletCode: null });
    expect((await outbox(server, investor.login)).length).toBe(sentBefore);
  });

  it("tells through the code channel, and by a notification in the app and once in the chat", async () => {
    const investor = await newInvestor(server.handle.db, systemClock);
    await linkTelegram(investor, {
      email: `${investor.login}@example.com`,
      emailConfirmedAt: new Date(),
      codeChannel: "email",
      language: "ru",
    });
    const wallet = [{ paymentSystemId: "ton", address: TON_WALLET }];
    const asked = await save(investor, wallet);
    expect(asked.body).toMatchObject({ walletCode: { channel: "email" } });
    const before = Date.now();
    await save(investor, wallet, await lastCode(server, investor.login, "wallet"));
    // The code channel: the message with the new address.
    const told = notices(investor);
    expect(told.map((n) => n.channel)).toEqual(["email"]);
    expect(told[0]?.text).toContain("кошелёк для вывода средств изменён");
    expect(told[0]?.text).toContain(TON_WALLET);
    // The app's notifications: which payment system, when, and what to do if it was not the investor.
    const [note] = await notifications(investor);
    expect(note).toMatchObject({ kind: "wallet_changed", target: { kind: "settings" }, readAt: null });
    expect(note?.title).toBe("Кошелёк для вывода изменён");
    const at = new Date(note?.createdAt ?? 0);
    expect(at.getTime()).toBeGreaterThanOrEqual(before - 60_000);
    const [date, time] = at.toISOString().slice(0, 16).split("T");
    expect(note?.body).toBe(
      `${date} в ${time} (UTC) изменён ваш кошелёк для вывода средств: TON (TON). ` +
        "Если это были не вы, сейчас же смените пароль и напишите в поддержку.",
    );
    // The chat: once, through the outbox, with the settings button.
    const chat = await chatMessages(investor);
    expect(chat.map((m) => [m.kind, m.startParam])).toEqual([["wallet_changed", "settings"]]);
  });

  it("reaches a chat that is also the code channel once, and directly when chat notifications are off", async () => {
    const wallet = [{ paymentSystemId: "ton", address: TON_WALLET }];
    const change = async (investor: Investor) => {
      await save(investor, wallet);
      await save(investor, wallet, await lastCode(server, investor.login, "wallet"));
      expect(await stored(investor)).toEqual(wallet);
    };
    const inChat = await newInvestor(server.handle.db, systemClock);
    await linkTelegram(inChat, { codeChannel: "telegram" });
    await change(inChat);
    expect(notices(inChat)).toEqual([]);
    expect((await chatMessages(inChat)).map((m) => m.kind)).toEqual(["wallet_changed"]);

    const quiet = await newInvestor(server.handle.db, systemClock);
    await linkTelegram(quiet, { codeChannel: "telegram", chatNotifications: false });
    await change(quiet);
    expect(notices(quiet).map((n) => [n.channel, n.text.split("\n")[0]])).toEqual([
      ["telegram", "Kassa: your withdrawal wallet was changed."],
    ]);
    expect(await chatMessages(quiet)).toEqual([]);
    expect((await notifications(quiet)).map((n) => n.kind)).toEqual(["wallet_changed"]);
  });

  it("asks for a new code only after the resend wait", async () => {
    const investor = await newInvestor(server.handle.db, systemClock);
    const wallet = [{ paymentSystemId: "ton", address: TON_WALLET }];
    expect((await save(investor, wallet)).status).toBe(200);
    const soon = await save(investor, wallet);
    expect(soon.status).toBe(429);
    expect(soon.body).toMatchObject({ code: "RATE_LIMITED" });
  });

  it("counts wrong codes into the withdrawal codes' budget", async () => {
    const investor = await newInvestor(server.handle.db, systemClock);
    const wallet = [{ paymentSystemId: "ton", address: TON_WALLET }];
    await save(investor, wallet);
    const code = await lastCode(server, investor.login, "wallet");
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await save(investor, wallet, wrong(code))).status);
    // RATE_LIMIT_WITHDRAWAL_CODE_ACCOUNT is 4 an hour here: the fifth entry is refused unjudged.
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect(await stored(investor)).toEqual([]);
  });

  it("counts wrong wallet codes into the day's wrong withdrawal codes that lock withdrawals", async () => {
    const investor = await newInvestor(server.handle.db, systemClock);
    const wallet = [{ paymentSystemId: "ton", address: TON_WALLET }];
    await save(investor, wallet);
    const code = await lastCode(server, investor.login, "wallet");
    // All but one of the day's wrong codes spent on earlier wallet codes.
    await server.handle.db.insert(verificationCodes).values({
      userId: investor.id,
      purpose: "wallet",
      target: "wallet:earlier",
      codeHash: "0".repeat(64),
      attempts: WITHDRAWAL_WRONG_CODES_PER_DAY - 1,
      expiresAt: new Date(Date.now() - 60_000),
      createdAt: new Date(Date.now() - 3600_000),
    });
    const last = await save(investor, wallet, wrong(code));
    expect(last).toMatchObject({ status: 403, body: { code: "WITHDRAWALS_LOCKED" } });
    expect((await notifications(investor)).map((n) => n.kind)).toEqual(["withdrawals_locked"]);
    const [row] = await server.handle.db
      .select({ until: users.withdrawalsLockedUntil })
      .from(users)
      .where(eq(users.id, investor.id));
    expect(row?.until?.getTime()).toBeGreaterThan(Date.now());
  });
});
