/**
 * The investor's home on PGlite and PostgreSQL: the statement CSV (content, only the caller's rows, formula
 * cells defused, the period's limits, batches), the whole picture in USDT, the income by day from its kept
 * sums, the notification inbox, a withdrawal's return as its own kind, and the block explorers.
 */
import { DAY_MS, explorerLink, routes, STATEMENT_COLUMNS } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { resultRows } from "../../server/src/db/rows";
import * as schema from "../../server/src/db/schema";
import { runAccruals } from "../../server/src/services/accruals";
import { closeDeposit, openDeposit } from "../../server/src/services/deposits";
import { notify } from "../../server/src/services/notifications";
import { confirmRefill, createRefill } from "../../server/src/services/refills";
import { csvCell, STATEMENT_BATCH } from "../../server/src/services/statements";
import {
  callRoute,
  createTestServer,
  injectRoute,
  TEST_CODE_SECRET,
  TEST_OPERATOR_TOKEN,
  type TestServer,
} from "./helpers";
import {
  addPlan,
  expectLedgerConsistent,
  freshPostgres,
  fund,
  type Investor,
  newInvestor,
  TEST_DATABASE_URL,
  TRC20_WALLET,
  withdrawalReadyInvestor,
} from "./money";
import { newPartner } from "./partners-helpers";

const databases = [
  { name: "PGlite", url: async () => null },
  ...(TEST_DATABASE_URL ? [{ name: "PostgreSQL", url: async () => freshPostgres("home") }] : []),
];

/** The statement's rows as cells (RFC 4180 as the server writes it), the header first. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  return rows;
}

describe.each(databases)("the investor's home on $name", ({ url }) => {
  const clock = fixedClock("2026-05-01T09:00:00Z");
  const day1 = "2026-05-01";
  const day2 = "2026-05-02";
  let server: TestServer;
  let drop: (() => Promise<void>) | undefined;
  let alice: Investor;
  let bob: Investor;
  let injectionRefill: string;
  let bobRefill: string;

  /** The raw reply: the status, the headers, and the body as text (CSV) or parsed (an error). */
  const statement = async (who: Investor | null, query: Record<string, string>) => {
    const res = await server.app.inject({
      method: "GET",
      url: `/api/user/operations/statement?${new URLSearchParams(query)}`,
      headers: who ? { authorization: `Bearer ${who.token}` } : {},
    });
    const json = res.headers["content-type"]?.toString().startsWith("application/json");
    return { status: res.statusCode, body: json ? (res.json() as Record<string, unknown>) : {}, text: res.body };
  };
  const statementText = async (who: Investor, query: Record<string, string>) => {
    const res = await server.app.inject({
      method: "GET",
      url: `/api/user/operations/statement?${new URLSearchParams(query)}`,
      headers: { authorization: `Bearer ${who.token}` },
    });
    expect(res.statusCode).toBe(200);
    return { text: res.body, headers: res.headers };
  };

  beforeAll(async () => {
    const database = await url();
    drop = database?.drop;
    server = await createTestServer({
      clock,
      ...(database ? { env: { DATABASE_URL: database.url, CODE_SECRET: TEST_CODE_SECRET } } : {}),
    });
    const db = server.handle.db;
    alice = await withdrawalReadyInvestor(server, clock);
    bob = await newInvestor(db, clock);
    // A transaction hash a spreadsheet would run as a formula (the refill form allows = and +).
    const refill = await createRefill({ db, clock }, alice.id, {
      paymentSystemId: "usdt-trc20",
      amount: "10",
      txHash: "=A1+B2+C3abc",
    });
    await confirmRefill({ db, clock }, refill.id);
    injectionRefill = refill.id;
    const requested = await callRoute(server, "requestWithdrawal", {
      token: alice.token,
      body: { paymentSystemId: "usdt-trc20", amount: "20" },
    });
    await callRoute(server, "cancelWithdrawal", { token: alice.token, params: { id: requested.withdrawal.id } });
    const bobs = await createRefill({ db, clock }, bob.id, { paymentSystemId: "usdt-trc20", amount: "50" });
    await confirmRefill({ db, clock }, bobs.id);
    bobRefill = bobs.id;
  });

  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it("writes the caller's operations of a day as CSV: header, exact amounts, ISO dates, the return as its own kind", async () => {
    const { text, headers } = await statementText(alice, { from: day1, to: day1 });
    expect(headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(headers["content-disposition"]).toBe(`attachment; filename="kassa-statement-${day1}-${day1}.csv"`);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual([...STATEMENT_COLUMNS]);
    const col = (name: (typeof STATEMENT_COLUMNS)[number]) => STATEMENT_COLUMNS.indexOf(name);
    expect(rows.map((r) => [r[col("type")], r[col("amount")], r[col("currency")]])).toEqual([
      ["refill", "600", "USDT"],
      ["plan", "-100", "USDT"],
      ["refill", "10", "USDT"],
      ["withdrawal", "-20", "USDT"],
      ["withdrawal_return", "20", "USDT"],
    ]);
    for (const r of rows) expect(r[col("date")]).toBe("2026-05-01T09:00:00.000Z");
    expect(rows[4]?.[col("description")]).toBe("Withdrawal cancelled · returned");
    expect(rows[3]?.[col("withdrawal_id")]).toBe(rows[4]?.[col("withdrawal_id")]);
    expect(rows[2]?.[col("refill_id")]).toBe(injectionRefill);
    // Bob's refill of the same day is not in Alice's statement.
    expect(text).not.toContain(bobRefill);
    expect(text).not.toContain(bob.id);
  });

  it("defuses a cell a spreadsheet would run as a formula, and leaves negative amounts numbers", async () => {
    const { text } = await statementText(alice, { from: day1, to: day1 });
    expect(text).toContain(`,"'=A1+B2+C3abc"\r\n`);
    expect(text).not.toMatch(/,=A1/);
    expect(text).toContain(",-100,");
    expect(text).not.toContain("'-");
  });

  it("covers both days of a two-day period and narrows by currency", async () => {
    clock.advance(DAY_MS);
    await fund(server.handle.db, clock, alice.id, "BTC", "0.5");
    const both = parseCsv((await statementText(alice, { from: day1, to: day2 })).text.slice(1));
    expect(both).toHaveLength(1 + 6);
    expect(both[6]?.slice(0, 1)).toEqual(["2026-05-02T09:00:00.000Z"]);
    const btc = parseCsv((await statementText(alice, { from: day1, to: day2, currency: "BTC" })).text.slice(1));
    expect(btc.slice(1).map((r) => r[STATEMENT_COLUMNS.indexOf("amount")])).toEqual(["0.5"]);
    const before = parseCsv((await statementText(alice, { from: "2026-04-01", to: "2026-04-30" })).text.slice(1));
    expect(before).toEqual([[...STATEMENT_COLUMNS]]);
  });

  it("refuses a period longer than 366 days, backwards or malformed, and a caller without a session", async () => {
    expect((await statement(alice, { from: "2025-05-01", to: "2026-05-02" })).body).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { to: "periodTooLong" },
    });
    expect((await statement(alice, { from: "2026-05-02", to: "2026-05-01" })).body).toMatchObject({
      fields: { to: "periodOrder" },
    });
    expect((await statement(alice, { from: "2026-05-01", to: "tomorrow" })).status).toBe(400);
    expect((await statement(alice, { from: "2026-05-01" })).status).toBe(400);
    expect((await statement(null, { from: day1, to: day1 })).status).toBe(401);
    // 366 days (a leap year) is the most.
    expect((await statement(alice, { from: "2024-01-01", to: "2024-12-31" })).status).toBe(200);
  });

  it("reads a long day in batches: every row once, in order, across ties of the same instant", async () => {
    const carol = await newInvestor(server.handle.db, clock);
    const start = clock.now().getTime();
    const count = STATEMENT_BATCH * 2 + 37;
    // Three operations per instant, so batch edges fall inside a tie.
    await server.handle.db.insert(schema.operations).values(
      Array.from({ length: count }, (_, i) => ({
        userId: carol.id,
        currency: "USDT",
        type: "refill",
        amount: `${i + 1}`,
        createdAt: new Date(start + Math.floor(i / 3) * 1000),
      })),
    );
    // Her balance follows, so the ledger still holds.
    await server.handle.db.insert(schema.balances).values({
      userId: carol.id,
      currency: "USDT",
      amount: String((count * (count + 1)) / 2),
      updatedAt: clock.now(),
    });
    const rows = parseCsv((await statementText(carol, { from: day2, to: day2 })).text.slice(1)).slice(1);
    expect(rows.map((r) => r[STATEMENT_COLUMNS.indexOf("amount")])).toEqual(
      Array.from({ length: count }, (_, i) => `${i + 1}`),
    );
  });

  it("tells the whole picture in USDT at the operator's rates, each currency's line beneath", async () => {
    await fund(server.handle.db, clock, alice.id, "TON", "0.123456789");
    const overview = await callRoute(server, "overview", { token: alice.token });
    // USDT 600 − 100 + 10 − 20 + 20 on the balance, 100 on the deposit; BTC 0.5 × 65000; TON 0.123456789 × 5.5.
    expect(overview.lines).toEqual([
      { currency: "USDT", balance: "510", onDeposit: "100", totalUsdt: "610" },
      { currency: "BTC", balance: "0.5", onDeposit: "0", totalUsdt: "32500" },
      { currency: "ETH", balance: "0", onDeposit: "0", totalUsdt: "0" },
      { currency: "TON", balance: "0.123456789", onDeposit: "0", totalUsdt: "0.679012" },
    ]);
    expect(overview).toMatchObject({
      currency: "USDT",
      totalUsdt: "33110.679012",
      balanceUsdt: "33010.679012",
      onDepositUsdt: "100",
      // Told in her current currency too: USDT, the same figures.
      current: {
        currency: "USDT",
        total: "33110.679012",
        balance: "33010.679012",
        onDeposit: "100",
        lines: { USDT: "610", BTC: "32500", ETH: "0", TON: "0.679012" },
      },
    });
    // Her current currency set to BTC: the same picture in BTC (÷ 65000), each value rounded half-up to BTC's 8
    // decimals, each line on its own (610 ÷ 65000 = 0.009384615…, 0.6790123395 ÷ 65000 = 0.0000104463…), the
    // total their sum; balance and deposits rounded once from their exact sums.
    await callRoute(server, "setBalanceCurrency", { token: alice.token, body: { currency: "BTC" } });
    expect((await callRoute(server, "overview", { token: alice.token })).current).toEqual({
      currency: "BTC",
      total: "0.50939507",
      balance: "0.5078566",
      onDeposit: "0.00153846",
      lines: { USDT: "0.00938462", BTC: "0.5", ETH: "0", TON: "0.00001045" },
    });
    await callRoute(server, "setBalanceCurrency", { token: alice.token, body: { currency: "USDT" } });
    // Bob's picture is his own.
    expect((await callRoute(server, "overview", { token: bob.token })).totalUsdt).toBe("50");
  });

  it("draws the income by day from its kept sums: accruals by due day, partner income by day paid", async () => {
    const db = server.handle.db;
    const gina = await newInvestor(db, clock);
    const dave = await newPartner(db, clock, gina.id, "dave");
    await addPlan(db, {
      id: "home-plan",
      currency: "USDT",
      dailyYieldPercent: "1",
      durationDays: 10,
      minAmount: "1",
      maxAmount: "100000",
    });
    await fund(db, clock, gina.id, "USDT", "1000");
    await fund(db, clock, dave.id, "USDT", "1000");
    const deposit = await openDeposit({ db, clock }, gina.id, {
      planId: "home-plan",
      currency: "USDT",
      amount: "400",
      autoInvest: false,
    });
    await openDeposit({ db, clock }, dave.id, {
      planId: "home-plan",
      currency: "USDT",
      amount: "1000",
      autoInvest: false,
    });
    clock.advance(3 * DAY_MS);
    await runAccruals(db, clock);

    const week = await callRoute(server, "income", { token: gina.token, query: { period: "7d" } });
    expect(week.days.map((d) => d.day)).toEqual([
      "2026-04-29",
      "2026-04-30",
      "2026-05-01",
      "2026-05-02",
      "2026-05-03",
      "2026-05-04",
      "2026-05-05",
    ]);
    // Dave's deposit on 05-02: 5 % of his 1000 as referral income and the first turnover bonus (10 at a
    // downline turnover of 1000) that day; then 1 % of Gina's 400 on each of the next three days.
    expect(week.days.map((d) => [d.accruals, d.bonuses])).toEqual([
      ["0", "0"],
      ["0", "0"],
      ["0", "0"],
      ["0", "60"],
      ["4", "0"],
      ["4", "0"],
      ["4", "0"],
    ]);
    expect(week.total).toEqual({ accruals: "12", bonuses: "60" });
    expect(week.byCurrency.USDT).toEqual({ accruals: "12", bonuses: "60" });
    expect((await callRoute(server, "income", { token: gina.token, query: { period: "30d" } })).days).toHaveLength(30);
    const all = await callRoute(server, "income", { token: gina.token, query: { period: "all" } });
    expect(all.days.map((d) => d.day)).toEqual(["2026-05-02", "2026-05-03", "2026-05-04", "2026-05-05"]);
    expect((await callRoute(server, "income", { token: bob.token, query: { period: "all" } })).days).toEqual([]);

    // Closed early: the held accruals are forfeited, so they leave the chart; the partner income stays.
    await closeDeposit({ db, clock }, gina.id, deposit.id);
    const after = await callRoute(server, "income", { token: gina.token, query: { period: "7d" } });
    expect(after.total).toEqual({ accruals: "0", bonuses: "60" });

    // The kept sums equal the same figures counted from accruals and operations, for everyone.
    const mismatches = await db.execute(sql`
      with counted as (
        select user_id, day, currency, sum(accruals) as accruals, sum(bonuses) as bonuses from (
          select d.user_id, (a.due_at at time zone 'UTC')::date as day, d.currency, a.amount as accruals, 0 as bonuses
            from ${schema.accruals} a join ${schema.deposits} d on d.id = a.deposit_id where d.status <> 'closed'
          union all
          select user_id, (created_at at time zone 'UTC')::date, currency, 0, amount from ${schema.operations}
           where type in ('referral', 'matching', 'bonus')) s
        group by user_id, day, currency)
      select * from counted c full join ${schema.incomeDays} k using (user_id, day, currency)
       where coalesce(c.accruals, 0) <> coalesce(k.accruals, 0) or coalesce(c.bonuses, 0) <> coalesce(k.bonuses, 0)`);
    expect(resultRows(mismatches)).toEqual([]);
    await expectLedgerConsistent(db);
  });

  it("keeps an inbox of every notification, read and unread, paged, each saying what it concerns", async () => {
    const db = server.handle.db;
    const erin = await newInvestor(db, clock);
    const frank = await newInvestor(db, clock);
    const at = clock.now().getTime();
    const ids = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"];
    await notify(
      db,
      erin.id,
      "refill_credited",
      { refillId: ids[0] ?? "", amount: "10", currency: "USDT" },
      new Date(at),
    );
    await notify(db, erin.id, "withdrawal_status", { withdrawalId: ids[1] ?? "", status: "success" }, new Date(at + 1));
    await notify(db, erin.id, "verification_success", {}, new Date(at + 2));
    // Two at the same instant: the page edge falls between them.
    await notify(db, erin.id, "withdrawals_locked", { until: "2026-05-06T00:00:00Z" }, new Date(at + 3));
    await notify(db, erin.id, "withdrawals_locked", { until: "2026-05-07T00:00:00Z" }, new Date(at + 3));
    await notify(
      db,
      frank.id,
      "refill_credited",
      { refillId: ids[0] ?? "", amount: "5", currency: "USDT" },
      new Date(at),
    );

    const seen: string[] = [];
    let after: string | undefined;
    const pages = [];
    do {
      const page = await callRoute(server, "notificationsInbox", {
        token: erin.token,
        query: { limit: 2, ...(after ? { after } : {}) },
      });
      pages.push(page.items.length);
      seen.push(...page.items.map((n) => n.id));
      expect(page).toMatchObject({ unread: 5, total: 5 });
      after = page.next ?? undefined;
    } while (after);
    expect(pages).toEqual([2, 2, 1]);
    expect(new Set(seen).size).toBe(5);
    const all = await callRoute(server, "notificationsInbox", { token: erin.token, query: { limit: 50 } });
    expect(all.items.map((n) => n.id)).toEqual(seen);
    expect(all.items.map((n) => n.target)).toEqual([
      null,
      null,
      { kind: "settings" },
      { kind: "withdrawal", id: ids[1] },
      { kind: "refill", id: ids[0] },
    ]);

    // One read: still listed, with its time; the count drops.
    const oldest = all.items[4]?.id ?? "";
    expect(await callRoute(server, "readNotification", { token: erin.token, params: { id: oldest } })).toEqual({
      unread: 4,
    });
    const again = await callRoute(server, "notificationsInbox", { token: erin.token, query: { limit: 50 } });
    expect(again.items).toHaveLength(5);
    expect(again.items[4]?.readAt).not.toBeNull();
    expect((await callRoute(server, "pulse", { token: erin.token })).unread).toBe(4);

    // Nobody reads or marks another's.
    const franks = await callRoute(server, "notificationsInbox", { token: frank.token, query: {} });
    expect(franks.items).toHaveLength(1);
    expect(franks.items.map((n) => n.id)).not.toContain(oldest);
    const foreign = franks.items[0]?.id ?? "";
    expect(
      (await injectRoute(server, routes.readNotification, { token: erin.token, params: { id: foreign } })).status,
    ).toBe(404);
    expect(
      (await injectRoute(server, routes.readNotification, { token: erin.token, params: { id: "nope" } })).status,
    ).toBe(404);
    expect((await callRoute(server, "notificationsInbox", { token: frank.token, query: {} })).unread).toBe(1);

    // All read; the older dialog call carries the targets too.
    expect(await callRoute(server, "readNotifications", { token: erin.token, body: {} })).toEqual({ unread: 0 });
    const dialog = await callRoute(server, "notifications", { token: erin.token });
    expect(dialog.items[4]?.target).toEqual({ kind: "refill", id: ids[0] });
  });

  it("lists a withdrawal's return as its own kind, with the application and its payment system", async () => {
    const ops = await callRoute(server, "operations", { token: alice.token, query: { type: "withdrawal_return" } });
    expect(ops.total).toBe(1);
    expect(ops.items[0]).toMatchObject({
      type: "withdrawal_return",
      amount: "20",
      details: { paymentSystemId: "usdt-trc20" },
    });
    const debit = await callRoute(server, "operations", { token: alice.token, query: { type: "withdrawal" } });
    expect(debit.items.map((o) => o.amount)).toEqual(["-20"]);
    expect(debit.items[0]?.details?.withdrawalId).toBe(ops.items[0]?.details?.withdrawalId);
  });

  it("opens one of the caller's withdrawals with its hash and payment system, nobody else's and no cancelled one", async () => {
    const one = (who: Investor, id: string) =>
      injectRoute(server, routes.withdrawal, { token: who.token, params: { id } });
    const cancelledId = (await callRoute(server, "operations", { token: alice.token, query: { type: "withdrawal" } }))
      .items[0]?.details?.withdrawalId;
    expect((await one(alice, cancelledId ?? "")).status).toBe(404);
    // A paid application, as the operator leaves it.
    const [paid] = await server.handle.db
      .insert(schema.withdrawals)
      .values({
        userId: alice.id,
        paymentSystemId: "usdt-trc20",
        currency: "USDT",
        network: "TRC20",
        wallet: TRC20_WALLET,
        amount: "30",
        fee: "0",
        amountToReceive: "30",
        status: "success",
        txHash: "9f2c0ffee",
        createdAt: clock.now(),
        processedAt: clock.now(),
      })
      .returning({ id: schema.withdrawals.id });
    const id = paid?.id ?? "";
    const mine = await callRoute(server, "withdrawal", { token: alice.token, params: { id } });
    expect(mine).toMatchObject({ id, status: "success", txHash: "9f2c0ffee", paymentSystemId: "usdt-trc20" });
    const system = (await callRoute(server, "paymentSystems")).find((s) => s.id === mine.paymentSystemId);
    expect(explorerLink(system?.explorerUrl, mine.txHash)).toBe("https://tronscan.org/#/transaction/9f2c0ffee");
    expect((await one(bob, id)).status).toBe(404);
    expect((await one(alice, "nope")).status).toBe(404);
  });

  it("gives each payment system the block explorer the operator sets", async () => {
    const systems = await callRoute(server, "paymentSystems");
    const trc20 = systems.find((s) => s.id === "usdt-trc20");
    expect(explorerLink(trc20?.explorerUrl, "abc123")).toBe("https://tronscan.org/#/transaction/abc123");
    const set = (value: unknown) =>
      injectRoute(server, operatorRoutes.setSetting, {
        token: TEST_OPERATOR_TOKEN,
        params: { key: "explorers" },
        body: { value },
      });
    expect((await set({ btc: "https://blockstream.info/tx/{tx}" })).status).toBe(200);
    const after = await callRoute(server, "paymentSystems");
    expect(after.find((s) => s.id === "btc")?.explorerUrl).toBe("https://blockstream.info/tx/{tx}");
    expect(after.find((s) => s.id === "usdt-trc20")?.explorerUrl).toBeNull();
    expect((await set({ btc: "http://blockstream.info/tx/{tx}" })).status).toBe(400);
    expect((await set({ btc: "https://blockstream.info/tx/" })).status).toBe(400);
    expect((await set({ btc: "javascript:alert(1)//{tx}" })).status).toBe(400);
  });

  it("gives one account at most 30 statements an hour", async () => {
    const hal = await newInvestor(server.handle.db, clock);
    const query = { from: "2026-01-01", to: "2026-12-31" };
    for (let i = 0; i < 30; i++) expect((await statement(hal, query)).status).toBe(200);
    const refused = await statement(hal, query);
    expect(refused).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    // Another account is not held back by it.
    expect((await statement(bob, query)).status).toBe(200);
    clock.advance(3600_000);
    expect((await statement(hal, query)).status).toBe(200);
  });

  it("opens the same file through a signed link for five minutes, without the session header", async () => {
    const query = { from: day1, to: day2 };
    const link = await callRoute(server, "statementLink", { token: alice.token, body: query });
    expect(Date.parse(link.expiresAt) - clock.now().getTime()).toBe(300_000);
    const open = (url: string) => server.app.inject({ method: "GET", url: `/api${url}` });
    const viaLink = await open(link.url);
    expect(viaLink.statusCode).toBe(200);
    expect(viaLink.headers["content-disposition"]).toBe(`attachment; filename="kassa-statement-${day1}-${day2}.csv"`);
    expect(viaLink.body).toBe((await statementText(alice, query)).text);

    // Altered: another user's id or another period under Alice's signature, or a cut signature.
    const token = new URL(link.url, "http://x").searchParams.get("link") ?? "";
    const [payload = "", signature = ""] = token.split(".");
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const forge = (value: unknown) =>
      `${routes.statementFile.path}?link=${Buffer.from(JSON.stringify(value)).toString("base64url")}.${signature}`;
    expect((await open(forge({ ...decoded, u: bob.id }))).statusCode).toBe(404);
    expect((await open(forge({ ...decoded, q: { from: "2025-05-02", to: day2 } }))).statusCode).toBe(404);
    expect((await open(`${routes.statementFile.path}?link=${payload}.${signature.slice(0, -2)}`)).statusCode).toBe(404);
    expect((await open(`${routes.statementFile.path}?link=garbage`)).statusCode).toBe(404);
    // No session: the link call itself needs one.
    expect((await injectRoute(server, routes.statementLink, { body: query })).status).toBe(401);

    clock.advance(300_001);
    expect((await open(link.url)).statusCode).toBe(404);
  });

  it("decodes a link strictly: nothing after its signature, no other spelling of the same bytes", async () => {
    const query = { from: day1, to: day2 };
    const link = await callRoute(server, "statementLink", { token: alice.token, body: query });
    const open = (token: string) =>
      server.app.inject({
        method: "GET",
        url: `/api${routes.statementFile.path}?${new URLSearchParams({ link: token })}`,
      });
    const token = new URL(link.url, "http://x").searchParams.get("link") ?? "";
    expect((await open(token)).statusCode).toBe(200);
    const [payload = "", signature = ""] = token.split(".");
    // The signature's last character carries two unused bits: its neighbour spells the same 32 bytes.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(signature.at(-1) ?? "A");
    const respelled = `${signature.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(respelled, "base64url").equals(Buffer.from(signature, "base64url"))).toBe(true);
    for (const junk of [
      `${token}.junk`,
      `${token}!!`,
      `${token}=`,
      `${token}*`,
      `${payload}.${respelled}`,
      `${payload}=.${signature}`,
      ` ${token}`,
    ]) {
      expect((await open(junk)).statusCode, junk).toBe(404);
    }
  });

  it("ends a statement link with the session that made it", async () => {
    const carl = await newInvestor(server.handle.db, clock);
    const query = { from: day1, to: day2 };
    const link = await callRoute(server, "statementLink", { token: carl.token, body: query });
    const open = () => server.app.inject({ method: "GET", url: `/api${link.url}` });
    expect((await open()).statusCode).toBe(200);
    await callRoute(server, "logout", { token: carl.token });
    expect((await open()).statusCode).toBe(404);
  });

  it("keeps every user's operations apart in the statement of a shared day", async () => {
    const rows = parseCsv((await statementText(bob, { from: day1, to: day2 })).text.slice(1)).slice(1);
    expect(rows.map((r) => r[STATEMENT_COLUMNS.indexOf("refill_id")])).toEqual([bobRefill]);
    const [mine] = resultRows<{ n: number }>(
      await server.handle.db.execute(
        sql`select count(*)::int as n from ${schema.operations} where ${eq(schema.operations.userId, bob.id)}`,
      ),
    );
    expect(rows).toHaveLength(mine?.n ?? -1);
  });
});

describe("statement cells", () => {
  it("defuses every start a spreadsheet reads as a formula, and leaves plain numbers alone", () => {
    expect(csvCell("=1+1")).toBe(`"'=1+1"`);
    expect(csvCell("+A1")).toBe(`"'+A1"`);
    expect(csvCell("-A1")).toBe(`"'-A1"`);
    expect(csvCell("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvCell("\tx")).toBe(`"'\tx"`);
    expect(csvCell("\rx")).toBe(`"'\rx"`);
    expect(csvCell("-20.5")).toBe("-20.5");
    expect(csvCell('say "hi", then')).toBe(`"say ""hi"", then"`);
    expect(csvCell(null)).toBe("");
  });
});
