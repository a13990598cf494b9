/**
 * Refills: the user starts one and gets the address to pay to, may attach the transaction hash,
 * sees only their own; the operator confirms (the balance is credited once, by a `refill`
 * operation) or rejects — through the service, the operator endpoint, and the real CLI process
 * talking to a running server that holds the embedded database.
 */
import path from "node:path";
import { Refill, routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { describe, expect, it } from "vitest";
import { fixedClock, systemClock } from "../../server/src/clock";
import { IDEMPOTENCY_KEY_TTL_MS } from "../../server/src/plugins/idempotency";
import { kassa, kassaProcess, serverForCli } from "./cli";
import {
  call,
  callRoute,
  injectRoute,
  type RouteRequest,
  TEST_OPERATOR_TOKEN,
  type TestServer,
  tempDirForTests,
} from "./helpers";
import { balanceOf, expectLedgerConsistent, type Investor, newInvestor, serverWithTwoInvestors } from "./money";

/** The operator confirms (with the amount credited, or the one requested) or rejects a refill. */
const confirmRefill = (
  server: TestServer,
  id: string,
  body: RouteRequest<typeof operatorRoutes.confirmRefill>["body"] = {},
) => injectRoute(server, operatorRoutes.confirmRefill, { token: TEST_OPERATOR_TOKEN, params: { id }, body });
const rejectRefill = (
  server: TestServer,
  id: string,
  body: RouteRequest<typeof operatorRoutes.rejectRefill>["body"] = {},
) => injectRoute(server, operatorRoutes.rejectRefill, { token: TEST_OPERATOR_TOKEN, params: { id }, body });

describe("refills", () => {
  const clock = fixedClock("2026-05-01T09:00:00Z");
  let server: TestServer, alice: Investor, bob: Investor;
  serverWithTwoInvestors(clock, (made) => ({ server, alice, bob } = made));

  const create = (investor: Investor, body: RouteRequest<typeof routes.createRefill>["body"]) =>
    injectRoute(server, routes.createRefill, { token: investor.token, body });

  it("starts a refill with the payment system's address, waiting", async () => {
    const res = await create(alice, { paymentSystemId: "usdt-trc20", amount: "250.5" });
    expect(res.status).toBe(200);
    expect(Refill.parse(res.body)).toMatchObject({
      status: "waiting",
      currency: "USDT",
      paymentSystemId: "usdt-trc20",
      network: "TRC20",
      address: "TG7BEHZQhE8U8veBu7ERWNqdCQKpH4P8FP",
      amountRequested: "250.5",
      amountCredited: null,
      txHash: null,
      createdAt: "2026-05-01T09:00:00.000Z",
      processedAt: null,
    });
    expect(await balanceOf(server, alice)).toMatchObject({ USDT: "0" });
  });

  it("truncates the amount to the currency's scale and refuses bad input", async () => {
    const btc = await create(alice, { paymentSystemId: "btc", amount: "0.123456789", txHash: "a1b2c3d4e5f60718" });
    expect(btc.body).toMatchObject({ amountRequested: "0.12345678", txHash: "a1b2c3d4e5f60718" });

    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ paymentSystemId: "doge", amount: "1" }, { paymentSystemId: "required" }],
      [{ paymentSystemId: "btc", amount: "-1" }, { amount: "amountNegative" }],
      [{ paymentSystemId: "btc", amount: "0" }, { amount: "amountBelowMinimum" }],
      [{ paymentSystemId: "btc", amount: "0.000000001" }, { amount: "amountBelowMinimum" }],
      [{ paymentSystemId: "btc", amount: "1e3" }, { amount: "required" }],
      [{ paymentSystemId: "btc", amount: 5 }, { amount: "required" }],
      [{ paymentSystemId: "btc", amount: "1", txHash: "not a hash!" }, { txHash: "required" }],
      [{ amount: "1" }, { paymentSystemId: "required" }],
    ];
    for (const [body, fields] of cases) {
      // Bodies the types forbid among them (a number, a missing field): sent raw.
      const res = await call(server, "POST", "/funds/refills", body, { token: alice.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_FAILED", fields });
    }
  });

  it("lists the caller's refills, newest first, with currency and status filters", async () => {
    clock.advance(60_000);
    await create(alice, { paymentSystemId: "ton", amount: "12" });
    await create(bob, { paymentSystemId: "ton", amount: "99" });
    const all = await callRoute(server, "refills", { token: alice.token });
    expect(all.total).toBe(3);
    expect(all.items[0]).toMatchObject({ currency: "TON", amountRequested: "12" });
    expect(new Set(all.items.slice(1).map((r) => r.currency))).toEqual(new Set(["USDT", "BTC"]));
    const ton = await callRoute(server, "refills", {
      token: alice.token,
      query: { currency: "TON", status: "waiting" },
    });
    expect(ton.items.map((r) => r.amountRequested)).toEqual(["12"]);
    const paged = await callRoute(server, "refills", { token: alice.token, query: { limit: 2, page: 2 } });
    expect(paged).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(paged.items).toHaveLength(1);
  });

  it("shows one refill to its owner only, and attaches the hash while it waits", async () => {
    const mine = Refill.parse((await create(alice, { paymentSystemId: "eth", amount: "0.5" })).body);
    const get = await callRoute(server, "refill", { token: alice.token, params: { id: mine.id } });
    expect(get).toEqual(mine);

    for (const id of [mine.id, "not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const other = await injectRoute(server, routes.refill, { token: bob.token, params: { id } });
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
    const steal = await injectRoute(server, routes.updateRefill, {
      token: bob.token,
      body: { txHash: "0xdeadbeefdeadbeef" },
      params: { id: mine.id },
    });
    expect(steal.status).toBe(404);

    const hash = "0x5e1f9a3c7b2d4e6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f";
    const patched = await callRoute(server, "updateRefill", {
      token: alice.token,
      body: { txHash: hash },
      params: { id: mine.id },
    });
    expect(patched).toMatchObject({ id: mine.id, txHash: hash, status: "waiting" });

    await rejectRefill(server, mine.id, { note: "nothing arrived" });
    const late = await injectRoute(server, routes.updateRefill, {
      token: alice.token,
      body: { txHash: hash },
      params: { id: mine.id },
    });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: "UPDATE_FAILED", message: "Update error the refill is no longer waiting" });
  });

  it("credits the confirmed amount once, with a refill operation", async () => {
    const refill = Refill.parse((await create(alice, { paymentSystemId: "usdt-erc20", amount: "100" })).body);
    clock.advance(3_600_000);
    const confirmed = await confirmRefill(server, refill.id, { amount: "99.5" });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      status: "replenished",
      amountRequested: "100",
      amountCredited: "99.5",
      processedAt: "2026-05-01T10:01:00.000Z",
    });
    expect((await balanceOf(server, alice)).USDT).toBe("99.5");

    const again = await confirmRefill(server, refill.id);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "UPDATE_FAILED", params: { error: "the refill is replenished" } });
    const reject = await rejectRefill(server, refill.id);
    expect(reject.status).toBe(400);
    expect((await balanceOf(server, alice)).USDT).toBe("99.5");

    const ops = await callRoute(server, "operations", { token: alice.token });
    expect(ops.items).toEqual([
      expect.objectContaining({
        type: "refill",
        currency: "USDT",
        amount: "99.5",
        // The payment system names the block explorer the history links the transaction to.
        details: { refillId: refill.id, paymentSystemId: refill.paymentSystemId },
      }),
    ]);
    const seen = await callRoute(server, "refill", { token: alice.token, params: { id: refill.id } });
    expect(seen).toMatchObject({ status: "replenished", amountCredited: "99.5" });
    await expectLedgerConsistent(server.handle.db);
  });

  it("credits the amount requested when the operator gives none; rejects leave the balance alone", async () => {
    const a = Refill.parse((await create(bob, { paymentSystemId: "ton", amount: "3.000000001" })).body);
    const b = Refill.parse((await create(bob, { paymentSystemId: "ton", amount: "4" })).body);
    expect((await confirmRefill(server, a.id)).body).toMatchObject({
      amountCredited: "3.000000001",
    });
    expect((await rejectRefill(server, b.id)).body).toMatchObject({
      status: "rejected",
      amountCredited: null,
    });
    expect((await balanceOf(server, bob)).TON).toBe("3.000000001");
    const missing = await confirmRefill(server, "00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    const zero = await create(bob, { paymentSystemId: "ton", amount: "1" });
    const refused = await confirmRefill(server, zero.body.id as string, { amount: "0" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { amount: "amountBelowMinimum" } });
  });

  it("lists refills of every user for the operator", async () => {
    const res = await injectRoute(server, operatorRoutes.refills, {
      token: TEST_OPERATOR_TOKEN,
      query: { status: "waiting" },
    });
    expect(res.status).toBe(200);
    const rows = res.body as unknown as { login: string; status: string }[];
    expect(rows.length).toBeGreaterThan(2);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(["waiting"]));
    expect(rows.map((r) => r.login)).toContain(bob.login);
    // Without the operator's token the route is not there.
    expect((await injectRoute(server, operatorRoutes.refills)).status).toBe(404);
  });

  it("claims an Idempotency-Key once: a repeat replays, another body is 422, a day later the key is new", async () => {
    const carol = await newInvestor(server.handle.db, clock);
    const send = (amount: string) =>
      call(
        server,
        "POST",
        "/funds/refills",
        { paymentSystemId: "usdt-trc20", amount },
        { token: carol.token, headers: { "idempotency-key": "refill-intent-0001" } },
      );
    const first = await send("10");
    expect(first.status).toBe(200);
    const again = await send("10");
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect((await send("11")).status).toBe(422);
    const created = clock.now();
    clock.advance(IDEMPOTENCY_KEY_TTL_MS + 1000);
    try {
      const later = await send("11");
      expect(later.status).toBe(200);
      expect(later.headers["idempotent-replayed"]).toBeUndefined();
      expect(later.body.id).not.toBe(first.body.id);
      expect(later.body.amountRequested).toBe("11");
      expect((await send("11")).body.id).toBe(later.body.id);
    } finally {
      clock.set(created);
    }
  });
});

describe("npm run kassa -- refill, accruals, clock, ledger", () => {
  const tmp = tempDirForTests();

  it("confirms a refill through the running server that holds the database", async () => {
    const dataDir = path.join(tmp.dir, "pglite");
    const { server, handle, close } = await serverForCli(dataDir);
    try {
      const investor = await newInvestor(handle.db, systemClock);
      const refill = await callRoute(server, "createRefill", {
        token: investor.token,
        body: { paymentSystemId: "ton", amount: "25" },
      });

      // The one spawned CLI of the run: the real entry, its argv, exit code and streams.
      const list = await kassaProcess(["refill", "list", "--status", "waiting"], { DATA_DIR: dataDir });
      expect(list.stderr).toMatch(/^kassa: acting on the running server \(pid \d+\) at http:\/\/127\.0\.0\.1:\d+\n$/);
      expect(list.code).toBe(0);
      expect(list.stdout).toContain(refill.id);
      expect(list.stdout).toContain(investor.login);
      // A command sent to the server loads no database layer (cli/direct-operator.ts is loaded only to open one).
      expect(list.modules.some((url) => url.includes("/server/src/cli/operator.ts"))).toBe(true);
      expect(list.modules.filter((url) => /drizzle-orm|@electric-sql|postgres|direct-operator/.test(url))).toEqual([]);

      const confirm = await kassa(["refill", "confirm", refill.id, "--amount", "24.75"], { DATA_DIR: dataDir });
      expect(confirm.stderr).toMatch(
        /^kassa: acting on the running server \(pid \d+\) at http:\/\/127\.0\.0\.1:\d+\n$/,
      );
      expect(confirm.code).toBe(0);
      expect(confirm.stdout).toContain(`Refill ${refill.id} replenished: 24.75 TON credited (via the running server`);
      expect((await balanceOf(server, investor)).TON).toBe("24.75");

      const twice = await kassa(["refill", "confirm", refill.id], { DATA_DIR: dataDir });
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain("UPDATE_FAILED");
      const unknown = await kassa(["refill", "reject", "00000000-0000-4000-8000-000000000000"], { DATA_DIR: dataDir });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("no refill 00000000-0000-4000-8000-000000000000");

      // The demo deposit (6 days of 60 accrued at seeding) and the demo partners' deposits move on
      // with the development clock.
      const advance = await kassa(["clock", "advance", "2"], { DATA_DIR: dataDir });
      expect(advance.stderr).toMatch(
        /^kassa: acting on the running server \(pid \d+\) at http:\/\/127\.0\.0\.1:\d+\n$/,
      );
      expect(advance.stdout).toContain("offset 2 day(s)");
      expect(advance.stdout).toMatch(/Accruals: \d+ day\(s\) on 5 deposit\(s\)/);
      const audit = await kassa(["ledger", "audit"], { DATA_DIR: dataDir });
      expect(audit.stdout).toContain("Ledger consistent");
      const reset = await kassa(["clock", "reset"], { DATA_DIR: dataDir });
      expect(reset.stdout).toContain("offset 0 day(s)");
      const run = await kassa(["accruals", "run"], { DATA_DIR: dataDir });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("0 day(s) on 0 deposit(s)");
    } finally {
      await close();
    }
  });
});
