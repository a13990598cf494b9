/**
 * A crash under load loses nothing that was acknowledged (docs/decisions.md#several-instances): the real server
 * process, a bounded load of money writes from several clients at once (refills created, refills the operator
 * confirms, deposits opened from the credited balance), `kill -9` of the server's whole process group in the
 * middle of it, a restart on the same data — then every write that was answered 2xx is there, and the ledger
 * audit finds every balance equal to the sum of its operations. Every money call the kill left without an answer
 * (killed between its key's claim and its reply) is sent again with the same Idempotency-Key, as the app does:
 * each gets its one outcome (the stored reply, or a first run when nothing was committed), never 409 for a key
 * stuck "in flight" and never a second deposit. Three cycles, on the embedded PGlite and on a real PostgreSQL.
 * The figures (writes acknowledged and found, unknown outcomes retried, per cycle) are printed.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import { freePort, type RunningServer, startServer } from "./support/server";

const OPERATOR_TOKEN = "crash-test-operator-token-0123456789";
const CYCLES = 3;
const WORKERS = 4;
/** How long the load runs before the kill. */
const LOAD_MS = 2_500;
/** Acknowledged writes before the cut. */
const MIN_WRITES = 12;

interface Acked {
  refills: Set<string>;
  confirmed: Set<string>;
  deposits: Set<string>;
  /** Money calls sent whose answer the kill cut off: retried with the same key after the restart. */
  unknown: { path: string; body: unknown; key: string }[];
}

async function json(base: string, method: string, path: string, token: string, body?: unknown, key?: string) {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(key ? { "idempotency-key": key } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function signIn(base: string): Promise<string> {
  return (await apiCall("login", { baseUrl: base, body: { login: "demo", password: "demo2026pass" } })).refreshToken;
}

/** Writes until `stop` says so; every 2xx is recorded. Connection errors (the kill) end the worker. */
async function worker(base: string, token: string, acked: Acked, stop: () => boolean) {
  let pending: Acked["unknown"][number] | null = null;
  /** A money call whose outcome is unknown until it answers. */
  const money = (path: string, body: unknown) => {
    pending = { path, body, key: randomUUID() };
    return json(base, "POST", path, token, body, pending.key).then((reply) => {
      pending = null;
      return reply;
    });
  };
  while (!stop()) {
    try {
      const refill = await money("/funds/refills", { paymentSystemId: "usdt-trc20", amount: "60" });
      if (refill.status !== 200) continue;
      const id = refill.body.id as string;
      acked.refills.add(id);
      const confirmed = await json(base, "POST", `/operator/refills/${id}/confirm`, OPERATOR_TOKEN, {});
      if (confirmed.status !== 200) continue;
      acked.confirmed.add(id);
      const deposit = await money("/funds/deposits", {
        planId: "start",
        currency: "USDT",
        amount: "50",
        autoInvest: false,
      });
      if (deposit.status === 200) acked.deposits.add(deposit.body.id as string);
    } catch {
      if (pending) acked.unknown.push(pending);
      return; // the server is gone
    }
  }
}

async function allDepositIds(base: string, token: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let page = 1; ; page++) {
    const reply = await json(base, "GET", `/funds/deposits?page=${page}&limit=50`, token);
    const items = reply.body.items as { id: string }[];
    for (const d of items) ids.add(d.id);
    if (items.length < 50) return ids;
  }
}

async function crashCycles(label: string, env: Record<string, string>, dataDir: string) {
  const port = await freePort();
  const lines: string[] = [];
  let server: RunningServer | null = await startServer(env, { port, dataDir });
  // Every deposit the client knows of: the demo's own, then each acknowledged one.
  const known = await allDepositIds(server.baseURL, await signIn(server.baseURL));
  try {
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const base = (server as RunningServer).baseURL;
      const token = await signIn(base);
      const acked: Acked = { refills: new Set(), confirmed: new Set(), deposits: new Set(), unknown: [] };
      let stopped = false;
      const load = Promise.all(Array.from({ length: WORKERS }, () => worker(base, token, acked, () => stopped)));
      // The cut comes once the load has written enough to count (on a busy machine that takes longer
      // than LOAD_MS), writes still in flight.
      const written = () => acked.refills.size + acked.confirmed.size + acked.deposits.size;
      const ceiling = Date.now() + 60_000;
      await new Promise((r) => setTimeout(r, LOAD_MS));
      while (written() < MIN_WRITES && Date.now() < ceiling) await new Promise((r) => setTimeout(r, 100));
      // Power cut: the whole process group at once, writes in flight.
      await (server as RunningServer).kill();
      stopped = true;
      await load;

      server = await startServer(env, { port, dataDir });
      const after = await signIn(server.baseURL);
      // The app's retry of an unknown outcome: the same call with the same key.
      const retried: { status: number; code: unknown; replayed: boolean }[] = [];
      for (const u of acked.unknown) {
        const res = await fetch(`${server.baseURL}/api${u.path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": u.key },
          body: JSON.stringify(u.body),
        });
        const body = (await res.json()) as Record<string, unknown>;
        retried.push({
          status: res.status,
          code: body.code,
          replayed: res.headers.get("idempotent-replayed") === "true",
        });
        if (res.status === 200 && u.path === "/funds/deposits") acked.deposits.add(body.id as string);
        if (res.status === 200 && u.path === "/funds/refills") acked.refills.add(body.id as string);
        // The same key once more: the same outcome, nothing new.
        const again = await json(server.baseURL, "POST", u.path, token, u.body, u.key);
        expect(again.status).toBe(res.status);
        if (res.status === 200) expect(again.body.id).toBe(body.id);
      }
      const refills = (await json(server.baseURL, "GET", "/operator/refills?limit=1000", OPERATOR_TOKEN))
        .body as unknown as {
        id: string;
        status: string;
      }[];
      const byId = new Map(refills.map((r) => [r.id, r.status]));
      const missingRefills = [...acked.refills].filter((id) => !byId.has(id));
      const unconfirmed = [...acked.confirmed].filter((id) => byId.get(id) !== "replenished");
      const deposits = await allDepositIds(server.baseURL, after);
      const missingDeposits = [...acked.deposits].filter((id) => !deposits.has(id));
      const audit = (await json(server.baseURL, "GET", "/operator/ledger/audit", OPERATOR_TOKEN)).body as {
        ok: boolean;
        discrepancies: unknown[];
      };
      const acknowledged = acked.refills.size + acked.confirmed.size + acked.deposits.size;
      const lost = missingRefills.length + unconfirmed.length + missingDeposits.length;
      const stuck = retried.filter((r) => r.code === "IDEMPOTENCY_IN_FLIGHT").length;
      lines.push(
        `${label} cycle ${cycle}: ${acknowledged} writes acknowledged (${acked.refills.size} refills, ${acked.confirmed.size} confirmations, ${acked.deposits.size} deposits), ${acknowledged - lost} found after kill -9 and restart; ${retried.length} unknown outcome(s) retried with their key: ${retried.filter((r) => r.replayed).length} replayed, ${retried.filter((r) => r.status === 200 && !r.replayed).length} run anew, ${stuck} stuck in flight; ledger audit ${audit.ok ? "consistent" : `${audit.discrepancies.length} discrepancies`}`,
      );
      expect(
        retried.map((r) => `${r.status} ${String(r.code ?? "")}`),
        "every retry with the same key gets the call's one outcome",
      ).toEqual(retried.map(() => "200 "));
      // No second deposit: every deposit of the user is one the client knows of (acknowledged, or its retry's).
      for (const id of acked.deposits) known.add(id);
      expect([...deposits].filter((id) => !known.has(id))).toEqual([]);
      expect(acknowledged, `${label} cycle ${cycle}: the load wrote something`).toBeGreaterThanOrEqual(MIN_WRITES);
      expect({ missingRefills, unconfirmed, missingDeposits }).toEqual({
        missingRefills: [],
        unconfirmed: [],
        missingDeposits: [],
      });
      expect(audit).toEqual({ ok: true, discrepancies: [] });
    }
  } finally {
    console.log(lines.map((l) => `[kassa] crash: ${l}`).join("\n"));
    await server?.stop();
  }
}

const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

// Each cycle starts the server twice; a loaded machine needs minutes.
describe("kill -9 under a write load", { timeout: 300_000 }, () => {
  it("loses no acknowledged write on PGlite", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kassa-crash-"));
    temp.push(dir);
    await crashCycles("PGlite", { OPERATOR_TOKEN }, dir);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("loses no acknowledged write on PostgreSQL", async () => {
    // A database of its own on the test server, dropped afterwards.
    const admin = postgres(process.env.TEST_DATABASE_URL as string, { max: 1, onnotice: () => undefined });
    const name = `kassa_crash_${process.pid}_${Date.now()}`;
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.pathname = `/${name}`;
    const dir = mkdtempSync(join(tmpdir(), "kassa-crash-"));
    temp.push(dir);
    try {
      await crashCycles(
        "PostgreSQL",
        { OPERATOR_TOKEN, DATABASE_URL: url.toString(), CODE_SECRET: "crash-test-code-secret-0123456789abcdef" },
        dir,
      );
    } finally {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
