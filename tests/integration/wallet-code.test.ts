/**
 * A withdrawal wallet changes only with a code: a new or changed address is stored once the code
 * sent to the investor's code channel for exactly that address is entered, and the investor is then
 * told through that channel that a wallet changed. Removals and unchanged addresses need no code;
 * wrong codes share the withdrawal codes' budgets.
 */
import { routes } from "@contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { users } from "../../server/src/db/schema";
import { createTestServer, injectRoute, lastCode, outbox, type TestServer } from "./helpers";
import { type Investor, newInvestor, TRC20_WALLET } from "./money";

const TON_WALLET = "UQOCX54f-k-0H-0Ng9fPd0hmx2mrCiI0kX1Ul0icVKV6QGBE";
const OTHER_TRC20 = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({ env: { RATE_LIMIT_WITHDRAWAL_CODE_ACCOUNT: "4/3600" } });
});
afterAll(async () => {
  await server.close();
});

const save = (investor: Investor, wallets: { paymentSystemId: string; address: string }[], code?: string) =>
  injectRoute(server, routes.updateWallets, {
    token: investor.token,
    body: code === undefined ? { wallets } : { wallets, code },
  });

const stored = async (investor: Investor) =>
  (await injectRoute(server, routes.wallets, { token: investor.token })).body;

const notices = (investor: Investor) => server.app.devOutbox?.notices(investor.login) ?? [];

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
    const code = await lastCode(server, investor.login, "withdrawal");

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
    await save(investor, first, await lastCode(server, investor.login, "withdrawal"));
    expect(await stored(investor)).toEqual(first);

    // The same address again: nothing to confirm.
    expect((await save(investor, first)).body).toEqual({ wallets: first, walletCode: null });

    const changed = [{ paymentSystemId: "usdt-trc20", address: OTHER_TRC20 }];
    const asked = await save(investor, changed);
    expect(asked.body).toMatchObject({ wallets: first, walletCode: { resendAfterSeconds: 60 } });
    expect(await stored(investor)).toEqual(first);
    await save(investor, changed, await lastCode(server, investor.login, "withdrawal"));
    expect(await stored(investor)).toEqual(changed);
    expect(notices(investor)).toHaveLength(2);

    const sentBefore = (await outbox(server, investor.login)).length;
    const removed = await save(investor, [{ paymentSystemId: "usdt-trc20", address: "" }]);
    expect(removed.body).toEqual({ wallets: [], walletCode: null });
    expect((await outbox(server, investor.login)).length).toBe(sentBefore);
  });

  it("tells through the code channel and, when the account is linked to Telegram, in the chat as well", async () => {
    const investor = await newInvestor(server.handle.db, systemClock);
    await server.handle.db
      .update(users)
      .set({
        email: `${investor.login}@example.com`,
        emailConfirmedAt: new Date(),
        codeChannel: "email",
        telegramId: 700_000_000 + Math.floor(Math.random() * 1e8),
        language: "ru",
      })
      .where(eq(users.id, investor.id));
    const wallet = [{ paymentSystemId: "ton", address: TON_WALLET }];
    const asked = await save(investor, wallet);
    expect(asked.body).toMatchObject({ walletCode: { channel: "email" } });
    await save(investor, wallet, await lastCode(server, investor.login, "withdrawal"));
    const told = notices(investor);
    expect(told.map((n) => n.channel).sort()).toEqual(["email", "telegram"]);
    for (const notice of told) {
      expect(notice.text).toContain("кошелёк для вывода средств изменён");
      expect(notice.text).toContain(TON_WALLET);
    }
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
    const code = await lastCode(server, investor.login, "withdrawal");
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await save(investor, wallet, wrong(code))).status);
    // RATE_LIMIT_WITHDRAWAL_CODE_ACCOUNT is 4 an hour here: the fifth entry is refused unjudged.
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect(await stored(investor)).toEqual([]);
  });
});
