/**
 * A withdrawal's outcome is named truly everywhere the investor reads it: the inbox notification (and the chat's,
 * rendered from the same texts) says paid out, rejected, failed, cancelled by the investor or cancelled as its code
 * expired unused, that the money is back on the balance, and the operator's note; the withdrawal carries the note; the ledger's return says why the money came back.
 *
 * Rerun: npx vitest run --project integration tests/integration/withdrawal-outcomes.test.ts
 */
import { routes } from "@contract";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { users } from "../../server/src/db/schema";
import { renderNotification } from "../../server/src/services/notifications";
import { expireWithdrawals, processWithdrawal } from "../../server/src/services/withdrawals";
import { hasBotText } from "../../server/src/texts/bot";
import { callRoute, injectRoute, lastCode, serverForTests, type TestServer } from "./helpers";
import { type Investor, PAYMENT_SYSTEM, withdrawalReadyInvestor } from "./money";

const clock = systemClock;
let server: TestServer;
serverForTests({ clock }, (made) => {
  server = made;
});

/** A withdrawal of 20 USDT still awaiting its code. */
async function awaitingCode(investor: Investor): Promise<string> {
  const requested = await injectRoute(server, routes.requestWithdrawal, {
    token: investor.token,
    body: { paymentSystemId: PAYMENT_SYSTEM.USDT, amount: "20" },
  });
  expect(requested.status).toBe(200);
  return (requested.body as { withdrawal: { id: string } }).withdrawal.id;
}

/** A withdrawal of 20 USDT with its code validated: in the operator's queue. */
async function queued(investor: Investor): Promise<string> {
  const requested = await injectRoute(server, routes.requestWithdrawal, {
    token: investor.token,
    body: { paymentSystemId: PAYMENT_SYSTEM.USDT, amount: "20" },
  });
  const id = (requested.body as { withdrawal: { id: string } }).withdrawal.id;
  const code = await lastCode(server, investor.login, "withdrawal");
  const done = await injectRoute(server, routes.validateWithdrawal, {
    token: investor.token,
    body: { withdrawalId: id, code },
  });
  expect(done.status).toBe(200);
  return id;
}

/** What the investor's code channel (e-mail, SMS) was told, newest first. */
const told = (investor: Investor) => server.app.devOutbox?.notices(investor.login) ?? [];

async function newest(investor: Investor) {
  const list = await callRoute(server, "notifications", { token: investor.token });
  return list.items[0];
}

describe("withdrawal outcomes", () => {
  it("a rejection says rejected, that the 20.00 USDT is back, and the operator's note", async () => {
    const investor = await withdrawalReadyInvestor(server, clock);
    await server.handle.db.update(users).set({ language: "en" }).where(eq(users.id, investor.id));
    const id = await queued(investor);
    await processWithdrawal({ db: server.handle.db, clock }, id, "reject", { note: "The wallet is on a blocklist" });

    const note = await newest(investor);
    expect(note?.title).toBe("Withdrawal rejected");
    expect(note?.body).toBe(
      "Your withdrawal of 20.00 USDT was rejected. The 20.00 USDT is back on your balance.\n" +
        "Note from the operator: The wallet is on a blocklist",
    );
    const withdrawal = await callRoute(server, "withdrawal", { token: investor.token, params: { id } });
    expect(withdrawal).toMatchObject({ status: "rejected", note: "The wallet is on a blocklist" });
    const ops = await callRoute(server, "operations", {
      token: investor.token,
      query: { page: 1, limit: 5, type: "withdrawal_return" },
    });
    expect(ops.items[0]?.details).toMatchObject({ withdrawalId: id, withdrawalOutcome: "rejected" });
  });

  it("a failure says failed and money back; a payout says paid out; in the investor's language", async () => {
    const investor = await withdrawalReadyInvestor(server, clock);
    await server.handle.db.update(users).set({ language: "de" }).where(eq(users.id, investor.id));
    const failed = await queued(investor);
    await processWithdrawal({ db: server.handle.db, clock }, failed, "error");
    expect(await newest(investor)).toMatchObject({
      title: "Auszahlung fehlgeschlagen",
      body: "Ihre Auszahlung über 20,00 USDT konnte nicht ausgeführt werden. Die 20,00 USDT sind wieder auf Ihrem Guthaben.",
    });
    const paid = await queued(investor);
    await processWithdrawal({ db: server.handle.db, clock }, paid, "success", { txHash: "0xabcdef0123456789" });
    expect((await newest(investor))?.title).toBe("Auszahlung ausgeführt");
  });

  it("the investor's own cancel says cancelled and that the 20.00 USDT is back", async () => {
    const investor = await withdrawalReadyInvestor(server, clock);
    await server.handle.db.update(users).set({ language: "en" }).where(eq(users.id, investor.id));
    const id = await awaitingCode(investor);
    const cancelled = await injectRoute(server, routes.cancelWithdrawal, { token: investor.token, params: { id } });
    expect(cancelled.status).toBe(200);

    const note = await newest(investor);
    expect(note).toMatchObject({
      title: "Withdrawal cancelled",
      body: "You cancelled your withdrawal of 20.00 USDT. The 20.00 USDT is back on your balance.",
    });
    // The cancelled withdrawal is not listed, so the notice opens nothing that would not be found.
    expect(note?.target ?? null).toBeNull();
    expect(told(investor)[0]?.text).toBe(note?.body);
  });

  it("a code that expired unused says so, cancels the withdrawal and gives the 20,00 USDT back", async () => {
    const investor = await withdrawalReadyInvestor(server, clock);
    await server.handle.db.update(users).set({ language: "de" }).where(eq(users.id, investor.id));
    const id = await awaitingCode(investor);
    // The sweeper a day later: the code's lifetime is long over.
    const later = { now: () => new Date(Date.now() + 24 * 60 * 60 * 1000) };
    const { codeSender, log } = server.app;
    expect(await expireWithdrawals({ db: server.handle.db, clock: later, codeSender, log })).toBeGreaterThanOrEqual(1);

    const note = await newest(investor);
    expect(note?.title).toBe("Auszahlungscode abgelaufen");
    expect(note?.body).toBe(
      "Ihre Auszahlung über 20,00 USDT wurde nicht bestätigt: Der Code ist ungenutzt abgelaufen, daher wurde die " +
        "Auszahlung storniert. Die 20,00 USDT sind wieder auf Ihrem Guthaben.",
    );
    // The system's own note ("code expired") is no operator's note.
    expect(note?.body).not.toContain("Betreibers");
    // The code channel (e-mail, SMS) hears of it too.
    expect(told(investor)[0]?.text).toBe(note?.body);
    // The history names the return by its cause.
    const ops = await callRoute(server, "operations", {
      token: investor.token,
      query: { page: 1, limit: 5, type: "withdrawal_return" },
    });
    expect(ops.items[0]?.details).toMatchObject({ withdrawalId: id, withdrawalOutcome: "expired" });
  });

  it("every outcome has its own words in every language", () => {
    const outcomes = ["on_inspection", "success", "rejected", "error", "cancelled", "expired"];
    for (const language of ["en", "ru", "de", "kk"] as const) {
      // Its own title and body, not the generic "Withdrawal {{status}}" with the status's key in it.
      for (const status of outcomes) {
        expect(hasBotText(language, `notifications.withdrawal_status.${status}.body`), `${language} ${status}`).toBe(
          true,
        );
      }
      const texts = outcomes.map(
        (status) => renderNotification("withdrawal_status", { status, amount: "20", currency: "USDT" }, language).title,
      );
      expect(new Set(texts).size).toBe(outcomes.length);
    }
  });
});
