// `npm run bench`: seeds a large cabinet by SQL (faithful to the schema: balance = Σ operations for
// every user and currency) on PGlite and on a throw-away PostgreSQL, starts the server on each,
// and measures its endpoints with autocannon beside `GET /api/health` and a bare Fastify hello in
// the same run. Prints one table and the load average; beside each throughput the CPU time per
// request of the server, PostgreSQL and autocannon (on a shared machine the throughput follows
// what the other processes leave; the CPU a request costs much less so). Not a test: nothing here
// passes or fails.
//
// Knobs (environment): BENCH_DB=pglite,postgres (which databases), BENCH_ROUNDS (interleaved
// rounds, 3), BENCH_SECONDS (per throughput measurement, 5), BENCH_SIZE=full|small (small: a
// quick look with a tenth of the data), BENCH_SERVER_DIR (the checkout whose server is measured,
// default this one: point it at a worktree of an older commit for a before/after), BENCH_ONLY=writes
// (only the hello, /api/health and the refill rows: a quick before/after of the write path), BENCH_ONLY=aims
// (only the rows the aims below the table are read from), BENCH_ONLY=deposits (only the hello, /api/health and the
// deposits' row), BENCH_ONLY=page (only the hello, /api/health and the app's page, `/`, a route of the app, a
// file of the launch and a chunk under 1 KB, served from the measured checkout's build as production serves it).
//
// Under the table each aim of the server's performance is printed beside its figure and ceiling, with the
// load average: /api/health against the bare hello, the signed-in reads against /api/health, the balance of
// 50,000 distinct investors (its cache hits read from readiness), the deposits' p99.
//
// The refill rows spread their writes over many investors (a user may have only 20 refills
// waiting); each row has investors of its own, signed in before the row starts (one untimed
// `GET /api/user/me` each), as an investor is by the cabinet's first call before a refill: the row
// measures the write, not the first reading of 3,000 sessions from the database.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import autocannon from "autocannon";
import postgres from "postgres";
import { freePort, startPostgres } from "./lib/postgres.mjs";
import { cpuSeconds, treeRssMb } from "./lib/process-tree.mjs";
import { startArguments } from "./lib/start-command.mjs";
import { findPostgresBin } from "./lib/system.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const SERVER_DIR = resolve(process.env.BENCH_SERVER_DIR ?? ROOT);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DBS = (process.env.BENCH_DB ?? "pglite,postgres").split(",").map((s) => s.trim());
const SMALL = process.env.BENCH_SIZE === "small";
const WRITES_ONLY = process.env.BENCH_ONLY === "writes";
const AIMS_ONLY = process.env.BENCH_ONLY === "aims";
const DEPOSITS_ONLY = process.env.BENCH_ONLY === "deposits";
const PAGE_ONLY = process.env.BENCH_ONLY === "page";
/** The first of the app's files its page names (the page's rows): one every launch asks for. */
const LAUNCH_FILE = PAGE_ONLY
  ? `/${readFileSync(join(SERVER_DIR, "dist", "index.html"), "utf8").match(/assets\/[\w.-]+\.js/)?.[0]}`
  : "";
/** With BENCH_ONLY=page, the build's largest script under 1 KB: a small chunk of a screen, as its own file. */
const SMALL_FILE = PAGE_ONLY
  ? `/assets/${
      readdirSync(join(SERVER_DIR, "dist", "assets"))
        .filter((name) => name.endsWith(".js"))
        .map((name) => ({ name, size: statSync(join(SERVER_DIR, "dist", "assets", name)).size }))
        .filter(({ size }) => size < 1024)
        .sort((a, b) => b.size - a.size || a.name.localeCompare(b.name))[0]?.name
    }`
  : "";
/** Distinct investors reading their balance within a minute (the caches' aim). */
const READERS = 50_000;
const readerToken = (i) => `'r' || lpad((${i})::text, 10, '0') || md5('r' || (${i}))`;
const readerTokenJs = (i) => `r${String(i).padStart(10, "0")}${createHash("md5").update(`r${i}`).digest("hex")}`;

/** The sizes: PostgreSQL gets the full million operations, PGlite a tenth of the ledger. */
const SIZES = {
  postgres: {
    line1: 500,
    line2: 5000,
    line3: 44500,
    depositsPerMember: 3,
    whaleOps: 105000,
    others: 50000,
    opsPerOther: 10,
  },
  pglite: {
    line1: 500,
    line2: 5000,
    line3: 44500,
    depositsPerMember: 0.2,
    whaleOps: 50000,
    others: 5000,
    opsPerOther: 4,
  },
};
if (SMALL) {
  for (const s of Object.values(SIZES)) {
    s.line2 = Math.round(s.line2 / 10);
    s.line3 = Math.round(s.line3 / 10);
    s.whaleOps = Math.round(s.whaleOps / 10);
    s.others = Math.round(s.others / 10);
  }
}

const token = (name) => createHash("sha256").update(`bench-${name}`).digest("base64url").slice(0, 43);
const hash = (t) => createHash("sha256").update(t, "utf8").digest("hex");
/** Refill writers and their tokens (43 characters of [A-Za-z0-9], as a session token). */
const WRITERS = 20000;
const writerToken = (i) => `'w' || lpad((${i})::text, 10, '0') || md5('w' || (${i}))`;
const writerTokenJs = (i) => `w${String(i).padStart(10, "0")}${createHash("md5").update(`w${i}`).digest("hex")}`;
/** Each refill row's own investors: a slice of the writers (ROUNDS rounds of two refill rows, and one more with the request log off and on). */
const WRITER_SLICE = Math.floor(WRITERS / (4 * ROUNDS));
let nextSlice = 0;
const TOKENS = { lead: token("lead"), whale: token("whale"), fresh: token("fresh"), writer: token("writer") };

function seedSql(size) {
  const { line1, line2, line3, whaleOps, others, opsPerOther } = size;
  // Every `depositEvery`-th team member opens `perMember` deposits.
  const perMember = Math.max(1, Math.round(size.depositsPerMember));
  const depositEvery = size.depositsPerMember >= 1 ? 1 : Math.round(1 / size.depositsPerMember);
  const names = `'{"en":"Bench","ru":"Bench","de":"Bench","kk":"Bench"}'::jsonb`;
  const sessions = Object.entries(TOKENS)
    .map(([who, t]) => `(md5('${who}')::uuid, '${hash(t)}', now(), now() + interval '30 days', now())`)
    .join(", ");
  return `
insert into plans (id, name, currency, daily_yield_percent, duration_days, min_amount, max_amount)
  values ('bench', ${names}, 'USDT', 1, 30, 10, 1000000) on conflict do nothing;
insert into payment_systems (id, name, currency, network, min_withdrawal, max_withdrawal, address, address_pattern)
  values ('bench-usdt', 'USDT TRC20', 'USDT', 'TRC20', 10, 100000, 'TBenchAddressBenchAddressBenchAddr', '^T\\w{33}$')
  on conflict do nothing;
insert into users (id, login, created_at) values
  (md5('lead')::uuid, 'bench_lead', now() - interval '400 days'),
  (md5('whale')::uuid, 'bench_whale', now() - interval '400 days'),
  (md5('fresh')::uuid, 'bench_fresh', now() - interval '1 day'),
  (md5('writer')::uuid, 'bench_writer', now() - interval '1 day');
insert into users (id, login, inviter_id, created_at)
  select md5('m1-' || i)::uuid, 'm1_' || i, md5('lead')::uuid, now() - interval '300 days' + i * interval '1 second'
    from generate_series(1, ${line1}) i;
insert into users (id, login, inviter_id, created_at)
  select md5('m2-' || i)::uuid, 'm2_' || i, md5('m1-' || (1 + i % ${line1}))::uuid,
         now() - interval '200 days' + i * interval '1 second'
    from generate_series(1, ${line2}) i;
insert into users (id, login, inviter_id, created_at)
  select md5('m3-' || i)::uuid, 'm3_' || i, md5('m2-' || (1 + i % ${line2}))::uuid,
         now() - interval '100 days' + i * interval '1 second'
    from generate_series(1, ${line3}) i;
insert into users (id, login, created_at)
  select md5('o-' || i)::uuid, 'other_' || i, now() - interval '100 days' + i * interval '1 second'
    from generate_series(1, ${others}) i;

-- The team's deposits: each member refills, then opens a deposit; the leader earns 5/3/1 % by line.
create temporary table bench_team as
  select row_number() over () as n, id, line from (
    select md5('m1-' || i)::uuid as id, 1 as line from generate_series(1, ${line1}) i
    union all select md5('m2-' || i)::uuid, 2 from generate_series(1, ${line2}) i
    union all select md5('m3-' || i)::uuid, 3 from generate_series(1, ${line3}) i) t;
create temporary table bench_dep as
  select md5('d-' || t.n || '-' || k)::uuid as id, t.id as user_id, t.line, t.n, k,
         (100 + (t.n % 50) * 10)::numeric as amount,
         now() - interval '90 days' + (t.n * ${perMember} + k) * interval '10 ms' as at
    from bench_team t, generate_series(1, ${perMember}) k
   where t.n % ${depositEvery} = 0;
insert into operations (id, user_id, currency, type, amount, created_at)
  select md5('dr-' || n || '-' || k)::uuid, user_id, 'USDT', 'refill', amount, at - interval '1 minute' from bench_dep;
insert into deposits (id, user_id, plan_id, currency, amount, daily_yield_percent, duration_days, daily_income,
                      status, started_at, ends_at, created_at)
  select id, user_id, 'bench', 'USDT', amount, 1, 30, amount / 100, 'active', at, at + interval '30 days', at from bench_dep;
insert into operations (id, user_id, currency, type, amount, deposit_id, created_at)
  select md5('dp-' || n || '-' || k)::uuid, user_id, 'USDT', 'plan', -amount, id, at from bench_dep;
insert into operations (id, user_id, currency, type, amount, deposit_id, created_at, meta)
  select md5('dl-' || n || '-' || k)::uuid, md5('lead')::uuid, 'USDT', 'referral',
         round(amount * (case line when 1 then 5 when 2 then 3 else 1 end) / 100, 6), id, at,
         jsonb_build_object('fromUserId', user_id, 'line', line)
    from bench_dep;
insert into referral_earnings (beneficiary_id, source_user_id, deposit_id, kind, line, currency, amount, operation_id, created_at)
  select md5('lead')::uuid, user_id, id, 'referral', line, 'USDT',
         round(amount * (case line when 1 then 5 when 2 then 3 else 1 end) / 100, 6), md5('dl-' || n || '-' || k)::uuid, at
    from bench_dep;
insert into referral_turnover (user_id, currency, amount, updated_at)
  select md5('lead')::uuid, 'USDT', sum(amount), now() from bench_dep;

-- The whale: a long ledger in two currencies (accruals, every 10th a refill, every 7th in BTC).
insert into operations (user_id, currency, type, amount, created_at)
  select md5('whale')::uuid, case when i % 7 = 0 then 'BTC' else 'USDT' end,
         case when i % 10 = 0 then 'refill' else 'accrual' end,
         case when i % 7 = 0 then 0.0001 else 0.5 end,
         now() - interval '400 days' + i * interval '5 minutes'
    from generate_series(1, ${whaleOps}) i;
-- Everyone else: a few refills and accruals each.
insert into operations (user_id, currency, type, amount, created_at)
  select md5('o-' || i)::uuid, 'USDT', case when j = 1 then 'refill' else 'accrual' end,
         case when j = 1 then 100 else 1 end, now() - interval '100 days' + (i * ${opsPerOther} + j) * interval '1 second'
    from generate_series(1, ${others}) i, generate_series(1, ${opsPerOther}) j;
-- The writer: funds for the deposit load; the fresh investor: three operations.
insert into operations (user_id, currency, type, amount, created_at) values
  (md5('writer')::uuid, 'USDT', 'refill', 1000000000, now() - interval '1 hour'),
  (md5('fresh')::uuid, 'USDT', 'refill', 100, now() - interval '3 hours'),
  (md5('fresh')::uuid, 'USDT', 'accrual', 1, now() - interval '2 hours'),
  (md5('fresh')::uuid, 'BTC', 'refill', 0.01, now() - interval '1 hours');
insert into balances (user_id, currency, amount, updated_at)
  select user_id, currency, sum(amount), now() from operations group by user_id, currency;
insert into sessions (user_id, token_hash, created_at, expires_at, last_used_at) values ${sessions};
-- Refill writers: a user may have only a few refills waiting, so the load spreads over many.
insert into users (id, login, created_at)
  select md5('w-' || i)::uuid, 'writer_' || i, now() - interval '1 day' from generate_series(1, ${WRITERS}) i;
insert into sessions (user_id, token_hash, created_at, expires_at, last_used_at)
  select md5('w-' || i)::uuid, encode(sha256(convert_to(${writerToken("i")}, 'UTF8')), 'hex'), now(),
         now() + interval '30 days', now()
    from generate_series(1, ${WRITERS}) i;
-- Readers: ${READERS} investors, each with a session and a balance.
insert into users (id, login, created_at)
  select md5('r-' || i)::uuid, 'reader_' || i, now() - interval '1 day' from generate_series(1, ${READERS}) i;
insert into sessions (user_id, token_hash, created_at, expires_at, last_used_at)
  select md5('r-' || i)::uuid, encode(sha256(convert_to(${readerToken("i")}, 'UTF8')), 'hex'), now(),
         now() + interval '30 days', now()
    from generate_series(1, ${READERS}) i;
insert into balances (user_id, currency, amount, updated_at)
  select md5('r-' || i)::uuid, 'USDT', i, now() from generate_series(1, ${READERS}) i;
analyze;
`;
}

// ---------------------------------------------------------------------------------------------
// Processes

async function waitFor(url, ms = 120_000) {
  const start = Date.now();
  while (Date.now() - start < ms) {
    try {
      const res = await fetch(url);
      if (res.ok) return Date.now() - start;
    } catch {}
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${url} did not answer`);
}

async function startServer(env) {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, startArguments(SERVER_DIR), {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      NODE_ENV: "production",
      CODE_SECRET: "bench-code-secret-bench-code-secret-0123",
      TELEGRAM_BOT_TOKEN: "123456:bench-token-not-a-real-one",
      TELEGRAM_BOT: "off",
      SEED_DEMO: "false",
      ACCRUAL_INTERVAL_SECONDS: "0",
      // The API alone, but for the page's rows: the measured checkout's build.
      STATIC_DIR: PAGE_ONLY ? join(SERVER_DIR, "dist") : "",
      // Every load comes from this one address: the per-address connection cap (64) would close the
      // connections of a run whose predecessor's are not all closed yet.
      MAX_CONNECTIONS_PER_ADDRESS: "100000",
      PORT: String(port),
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`);
  const coldStartMs = Date.now() - started;
  // Liveness answers from the first moments of a start; the database is migrated and the app
  // serves once readiness answers 200.
  await waitFor(`${base}/api/health/ready`);
  return {
    base,
    pid: child.pid,
    coldStartMs,
    coldReadyMs: Date.now() - started,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    },
  };
}

async function startHello() {
  const port = await freePort();
  const code = `import Fastify from "fastify"; const app = Fastify(); app.get("/", async () => ({ hello: "world" }));
    await app.listen({ port: ${port}, host: "127.0.0.1" });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT, stdio: "inherit" });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/`);
  return { base, pid: child.pid, stop: () => child.kill("SIGTERM") };
}

/** The postmaster of the PostgreSQL listening on `url`'s port (its command line names the port). */
function postmasterOf(url) {
  const port = new URL(url).port;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args[0]?.endsWith("postgres") && args.includes("-p") && args.includes(port)) return Number(entry);
    } catch {}
  }
  return null;
}

/** The processes whose CPU a row reports: the one serving, the database's (PostgreSQL), and this one (autocannon). */
const cpuOf = { serving: null, database: null };

// ---------------------------------------------------------------------------------------------
// Measuring

/**
 * autocannon's run. With `amount` it also says when the last reply came (`busySeconds`): autocannon notices the end
 * only at its next one-second sample, so its req/s of such a run is `amount` over the whole seconds begun (50,000
 * replies in 4.1 s or in 4.9 s both read 10,000 req/s).
 */
function cannon(opts) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    let last = started;
    const instance = autocannon({ timeout: 20, ...opts }, (err, result) =>
      err ? reject(err) : resolvePromise({ ...result, busySeconds: (last - started) / 1000 }),
    );
    if (opts.amount)
      instance.on("response", () => {
        last = performance.now();
      });
  });
}

const auth = (who) => ({ authorization: `Bearer ${TOKENS[who]}` });

let nextKey = 0;

async function throughput(
  url,
  {
    connections = 32,
    who,
    method = "GET",
    body,
    writers = null,
    keyed = false,
    amount = undefined,
    headers: extra = {},
  } = {},
) {
  let next = 0;
  const rotating = {
    requests: [
      {
        setupRequest(req) {
          const writer = writers.first + (next++ % writers.count);
          const headers = { ...req.headers, authorization: `Bearer ${(writers.tokenOf ?? writerTokenJs)(writer)}` };
          // A new intent each time, as the app sends one (server/src/plugins/idempotency.ts).
          if (keyed) headers["idempotency-key"] = `bench-${process.pid}-${++nextKey}`;
          return { ...req, headers };
        },
      },
    ],
  };
  const served = cpuOf.serving ? [cpuOf.serving] : [];
  const before = { serving: cpuSeconds(served), database: cpuOf.database ? cpuSeconds([cpuOf.database]) : 0 };
  const own = process.cpuUsage();
  const r = await cannon({
    ...(writers ? rotating : {}),
    url,
    connections,
    ...(amount === undefined ? { duration: SECONDS } : { amount }),
    method,
    headers: { ...(who ? auth(who) : {}), ...(body ? { "content-type": "application/json" } : {}), ...extra },
    body: body ? JSON.stringify(body) : undefined,
  });
  const bad = r.non2xx + r.errors + r.timeouts;
  // CPU milliseconds per request of the server, the database and the load generator.
  const n = Math.max(1, r.requests.total);
  const spent = process.cpuUsage(own);
  const cpu = {
    server: ((cpuSeconds(served) - before.serving) * 1000) / n,
    database: cpuOf.database ? ((cpuSeconds([cpuOf.database]) - before.database) * 1000) / n : null,
    load: (spent.user + spent.system) / 1000 / n,
  };
  // A run of `amount` requests: its replies over the time until the last one (see `cannon`).
  const rps = amount === undefined ? r.requests.average : r.requests.total / r.busySeconds;
  return { rps, p50: r.latency.p50, p99: r.latency.p99, bad, cpu };
}

/** The next refill row's investors, signed in (each session read once, untimed). */
async function signedInWriters(api) {
  const writers = { first: 1 + nextSlice++ * WRITER_SLICE, count: WRITER_SLICE };
  const warm = await throughput(`${api}/user/me`, { writers, amount: writers.count });
  if (warm.bad) throw new Error(`signing in the refill row's investors: ${warm.bad} failed`);
  return writers;
}

/** p50 of sequential calls (c=1), at most `amount` of them or SECONDS. */
async function latency(url, who, amount = 200, slow = false) {
  // A slow call gets 20 s to answer, and the measurement 25 s.
  const r = await cannon({
    url,
    connections: 1,
    maxOverallRequests: amount,
    duration: slow ? 25 : SECONDS,
    headers: auth(who),
    timeout: 20,
  });
  return { p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts, n: r.requests.total };
}

/** The whale's `next` after page `page` (20 a page): where a keyset deep page starts. */
async function cursorAfterPage(api, page) {
  const res = await fetch(`${api}/user/operations/?page=${page}&limit=20`, { headers: auth("whale") });
  const body = await res.json();
  return body.next ?? "";
}

/** The leader's `next` after page `page` (50 a page, by investments): where a keyset page starts. */
async function referralCursorAfterPage(api, page) {
  const res = await fetch(`${api}/user/referrals?page=${page}&limit=50&sort=investments`, { headers: auth("lead") });
  const body = await res.json();
  return body.next ?? "";
}

const ROWS = [];
const results = new Map();
function record(db, key, value) {
  if (!ROWS.includes(key)) ROWS.push(key);
  const k = `${db}|${key}`;
  if (!results.has(k)) results.set(k, []);
  results.get(k).push(value);
}

async function measure(db, server, hello) {
  const api = `${server.base}/api`;
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`[bench] ${db}: round ${round}/${ROUNDS}`);
    cpuOf.serving = hello.pid;
    record(db, "bare Fastify hello (c=32)", await throughput(`${hello.base}/`));
    cpuOf.serving = server.pid;
    record(db, "/api/health (c=32)", await throughput(`${api}/health`));
    if (DEPOSITS_ONLY) continue;
    if (PAGE_ONLY) {
      // As a browser asks for a page: the reply it takes compressed.
      const headers = { "accept-encoding": "br, gzip" };
      record(db, "the page, GET / (c=32)", await throughput(`${server.base}/`, { headers }));
      record(db, "a route of the app, GET /deposits (c=32)", await throughput(`${server.base}/deposits`, { headers }));
      record(
        db,
        "a file of the launch, GET /assets/… (c=32)",
        await throughput(`${server.base}${LAUNCH_FILE}`, { headers }),
      );
      record(
        db,
        "a chunk under 1 KB, GET /assets/… (c=32)",
        await throughput(`${server.base}${SMALL_FILE}`, { headers }),
      );
      continue;
    }
    if (!WRITES_ONLY) {
      record(db, "/user/me (c=32)", await throughput(`${api}/user/me`, { who: "fresh" }));
      record(db, "/user/balance (c=32)", await throughput(`${api}/user/balance`, { who: "fresh" }));
      record(db, "/user/pulse (c=32)", await throughput(`${api}/user/pulse`, { who: "fresh" }));
      record(db, "/user/pulse (c=1)", await throughput(`${api}/user/pulse`, { who: "fresh", connections: 1 }));
    }
    if (!WRITES_ONLY)
      record(db, `/user/balance, ${READERS.toLocaleString("en-US")} investors (c=32)`, await manyReaders(api));
    if (AIMS_ONLY) continue;
    const refill = { paymentSystemId: "bench-usdt", amount: "50" };
    const url = `${api}/funds/refills`;
    const plain = await signedInWriters(api);
    record(db, "refill POST (c=32)", await throughput(url, { method: "POST", body: refill, writers: plain }));
    const keyed = await signedInWriters(api);
    record(
      db,
      "refill POST with Idempotency-Key (c=32)",
      await throughput(url, { method: "POST", body: refill, writers: keyed, keyed: true }),
    );
  }
  const rssLoaded = treeRssMb(server.pid);
  if (WRITES_ONLY || PAGE_ONLY) return rssLoaded;
  if (AIMS_ONLY || DEPOSITS_ONLY) {
    await deposits(db, api);
    return rssLoaded;
  }
  // The deep pages: page 2000 of the whale's history, or its last full page when shorter (small runs).
  const deep = Math.min(2000, Math.floor(SIZES[db].whaleOps / 20) - 1);
  // Single-caller latencies of the big investors (p50 of sequential calls).
  const lat = [
    ["pulse, whale", "/user/pulse", "whale"],
    ["pulse, fresh investor", "/user/pulse", "fresh"],
    ["statistics, whale", "/user/statistics", "whale"],
    ["statistics, leader", "/user/statistics", "lead"],
    ["operations page 1, whale", "/user/operations/?limit=20", "whale"],
    ["operations BTC page 1, whale", "/user/operations/?currency=BTC&limit=20", "whale"],
    ["operations no-match filter, whale", "/user/operations/?type=bonus&limit=20", "whale"],
    [
      `operations deep page (offset ${(deep * 20).toLocaleString("en-US")}), whale`,
      `/user/operations/?page=${deep + 1}&limit=20`,
      "whale",
    ],
    [
      `operations deep page by keyset (after page ${deep}), whale`,
      `/user/operations/?limit=20&after=${await cursorAfterPage(api, deep)}`,
      "whale",
    ],
    ["operations page 1, leader", "/user/operations/?limit=20", "lead"],
    ["referrals page 1 + totals, leader", "/user/referrals?limit=50", "lead"],
    ["referrals by investments", "/user/referrals?limit=50&sort=investments", "lead"],
    ["referrals by investments, smallest first", "/user/referrals?limit=50&sort=investments&sortDir=asc", "lead"],
    ["referrals by profit", "/user/referrals?limit=50&sort=profit", "lead"],
    ["referrals by profit, line 3", "/user/referrals?limit=50&sort=profit&line=3", "lead"],
    ["referrals by line", "/user/referrals?limit=50&sort=line&sortDir=desc", "lead"],
    ["referrals by login Z–A, line 2", "/user/referrals?limit=50&sort=login&sortDir=desc&line=2", "lead"],
    ["referrals by registration, oldest first", "/user/referrals?limit=50&sort=createdAt&sortDir=asc", "lead"],
    ["referrals search 'm3_12'", "/user/referrals?limit=50&search=m3_12", "lead"],
    ["referrals search 'm2_1' by investments", "/user/referrals?limit=50&search=m2_1&sort=investments", "lead"],
    ["referrals by login, page 100", "/user/referrals?limit=50&sort=login&sortDir=asc&page=100", "lead"],
    [
      "referrals by investments, keyset page 101",
      `/user/referrals?limit=50&sort=investments&after=${await referralCursorAfterPage(api, 100)}`,
      "lead",
    ],
  ];
  for (const [name, path, who] of lat) {
    const referrals = name.startsWith("referrals");
    const r = await latency(`${api}${path}`, who, referrals ? 20 : 200, referrals);
    record(db, `${name} (c=1)`, { p50: r.p50, p99: r.p99, bad: r.bad, n: r.n });
  }
  await deposits(db, api);
  return rssLoaded;
}

/** Deposits of one investor, 32 at once: they queue on the investor's balance row. */
async function deposits(db, api) {
  const deposit = { planId: "bench", currency: "USDT", amount: "10" };
  for (let round = 1; round <= ROUNDS; round++)
    record(
      db,
      "deposit POST (c=32)",
      await throughput(`${api}/funds/deposits`, { who: "writer", method: "POST", body: deposit }),
    );
}

/** The caches that keep something per investor: whichever of them the route reads counts. */
const PER_INVESTOR = ["sessions", "users", "balances", "pulse", "unread"];

/** The caches' counters of readiness, summed over the per-investor caches. */
async function cacheCounters(api) {
  const body = await (await fetch(`${api}/health/ready`)).json();
  const caches = body.caches ?? {};
  const sum = (field) => PER_INVESTOR.reduce((total, name) => total + (caches[name]?.[field] ?? 0), 0);
  return { hits: sum("hits"), misses: sum("misses"), known: body.caches !== undefined };
}

/**
 * `GET /user/balance` by READERS distinct investors in turn, twice (well within a minute): the first pass
 * signs them in (untimed), the second is the row, with the share of its reads of the per-investor caches the caches
 * answered (readiness' counters; "?" for a server without them).
 */
async function manyReaders(api) {
  // The tokens made before the pass: an MD5 a request in the load generator would take the CPU the server shares.
  const tokens = Array.from({ length: READERS }, (_, i) => readerTokenJs(i + 1));
  const readers = { first: 1, count: READERS, tokenOf: (i) => tokens[i - 1] };
  const warm = await throughput(`${api}/user/balance`, { writers: readers, amount: READERS });
  if (warm.bad) throw new Error(`the readers' first pass: ${warm.bad} failed`);
  const before = await cacheCounters(api);
  const r = await throughput(`${api}/user/balance`, { writers: readers, amount: READERS });
  const after = await cacheCounters(api);
  const hits = after.hits - before.hits;
  const total = hits + after.misses - before.misses;
  return { ...r, hitRate: after.known && total > 0 ? hits / total : null };
}

// ---------------------------------------------------------------------------------------------

async function runPglite() {
  const dir = mkdtempSync(join(tmpdir(), "kassa-bench-"));
  const dataDir = join(dir, "pglite");
  try {
    let server = await startServer({ DATA_DIR: dataDir });
    await server.stop();
    console.log("[bench] pglite: seeding…");
    const t = Date.now();
    const pg = await PGlite.create({ dataDir, extensions: { pg_trgm } });
    await pg.exec(seedSql(SIZES.pglite));
    await pg.close();
    console.log(`[bench] pglite: seeded in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    server = await startServer({ DATA_DIR: dataDir });
    return await runAgainst("pglite", server, (env) => startServer({ DATA_DIR: dataDir, ...env }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runPostgres() {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL binaries not found (set PG_BIN)");
  const pg = await startPostgres(bin);
  cpuOf.database = postmasterOf(pg.url);
  try {
    let server = await startServer({ DATABASE_URL: pg.url });
    await server.stop();
    console.log("[bench] postgres: seeding…");
    const t = Date.now();
    const sql = postgres(pg.url, { onnotice: () => {}, max: 1 });
    await sql.unsafe(seedSql(SIZES.postgres)).simple();
    const [{ n }] = await sql`select count(*)::int as n from operations`;
    await sql.end();
    console.log(`[bench] postgres: seeded ${n} operations in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    server = await startServer({ DATABASE_URL: pg.url });
    return await runAgainst("postgres", server, (env) => startServer({ DATABASE_URL: pg.url, ...env }));
  } finally {
    cpuOf.database = null;
    pg.stop();
  }
}

async function runAgainst(db, server, restart) {
  // Each database is seeded with its own writers: their slices start again from the first.
  nextSlice = 0;
  const hello = await startHello();
  try {
    await new Promise((r) => setTimeout(r, 2000));
    record(db, "cold start to health (ms)", server.coldStartMs);
    record(db, "cold start to ready (ms)", server.coldReadyMs);
    record(db, "server RSS idle (MB, process tree)", treeRssMb(server.pid));
    // The issue's measure: the tree 60 s into the rows' load (a sample taken while they run), beside the
    // one after all of them (minutes of load, the deposits' queue included).
    const at60 = setTimeout(
      () => record(db, "server RSS after 60 s of load (MB, process tree)", treeRssMb(server.pid)),
      60_000,
    );
    const loaded = await measure(db, server, hello);
    clearTimeout(at60);
    record(db, "server RSS after load (MB, process tree)", loaded);
    await server.stop();
    // What the request log costs: the same calls on a server started with LOG_LEVEL=warn (no line
    // per request) and again with the default (info), a round each in turn.
    for (let round = 1; round <= (AIMS_ONLY || PAGE_ONLY ? 0 : ROUNDS); round++) {
      for (const level of ["warn", "info"]) {
        const again = await restart({ LOG_LEVEL: level });
        cpuOf.serving = again.pid;
        try {
          const api = `${again.base}/api`;
          const label = level === "warn" ? "request log off" : "request log on";
          await throughput(`${api}/health`); // warm-up
          record(db, `/api/health, ${label} (c=32)`, await throughput(`${api}/health`));
          if (!WRITES_ONLY)
            record(db, `/user/pulse, ${label} (c=32)`, await throughput(`${api}/user/pulse`, { who: "fresh" }));
          const writers = await signedInWriters(api);
          const refill = { method: "POST", body: { paymentSystemId: "bench-usdt", amount: "50" }, writers };
          record(db, `refill POST, ${label} (c=32)`, await throughput(`${api}/funds/refills`, refill));
        } finally {
          await again.stop();
        }
      }
    }
  } finally {
    hello.stop();
    await server.stop();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

function cell(values) {
  if (!values) return "";
  const v = values[0];
  if (typeof v === "number") return String(median(values));
  if ("rps" in v) {
    const bad = values.reduce((a, x) => a + x.bad, 0);
    const ms = (part) => median(values.map((x) => x.cpu[part])).toFixed(2);
    const cpu = `CPU ms/req: server ${ms("server")}${values[0].cpu.database === null ? "" : ` + PostgreSQL ${ms("database")}`} + autocannon ${ms("load")}`;
    const hits =
      values[0].hitRate === undefined
        ? ""
        : `; cache hits ${values[0].hitRate === null ? "?" : `${(median(values.map((x) => x.hitRate)) * 100).toFixed(1)} %`}`;
    return `${Math.round(median(values.map((x) => x.rps)))} req/s, p99 ${median(values.map((x) => x.p99))} ms${bad ? `, ${bad} failed` : ""}; ${cpu}${hits}`;
  }
  const bad = values.reduce((a, x) => a + x.bad, 0);
  if (values.every((x) => x.n - x.bad <= 0)) return `no reply in 20 s (${bad} tried)`;
  return `${median(values.map((x) => x.p50))} ms p50 (p99 ${median(values.map((x) => x.p99))}, n=${values[0].n})${bad ? `, ${bad} failed` : ""}`;
}

const loadBefore = loadavg();
for (const db of DBS) {
  if (db === "pglite") await runPglite();
  else if (db === "postgres") await runPostgres();
}
const loadAfter = loadavg();
const fmt = (l) => l.map((x) => x.toFixed(2)).join(" ");
console.log(
  `\nserver: ${SERVER_DIR === ROOT ? "this checkout" : SERVER_DIR}; ${ROUNDS} rounds of ${SECONDS} s; medians`,
);
console.log(
  `load average before: ${fmt(loadBefore)}; after: ${fmt(loadAfter)} (${(await import("node:os")).cpus().length} cores)\n`,
);
console.log(`| what | ${DBS.join(" | ")} |`);
console.log(`|---|${DBS.map(() => "---").join("|")}|`);
for (const row of ROWS) console.log(`| ${row} | ${DBS.map((db) => cell(results.get(`${db}|${row}`))).join(" | ")} |`);
// The aims (issue 36), each beside its figure and ceiling, from this run. Shares of throughput and of CPU per
// request (the CPU moves much less with the machine's other load than the throughput does).
console.log(`\naims (load average now ${fmt(loadavg())}):`);
for (const db of DBS) {
  const rows = (row) => results.get(`${db}|${row}`) ?? [];
  const rate = (row) => median(rows(row).map((x) => x.rps));
  const cpu = (row) => median(rows(row).map((x) => x.cpu.server));
  const aim = (what, figure, ceiling, met) =>
    console.log(`  ${db}: ${what}: ${figure} — aim ${ceiling} — ${met ? "met" : "NOT met"}`);
  const share = (row, of, floor) => {
    if (!rows(row).length || !rows(of).length) return;
    const byRate = rate(row) / rate(of);
    const byCpu = cpu(of) / cpu(row);
    aim(
      `${row} against ${of}`,
      `${Math.round(byRate * 100)} % of its req/s, ${Math.round(byCpu * 100)} % by server CPU per request (${cpu(row).toFixed(3)} vs ${cpu(of).toFixed(3)} ms)`,
      `≥ ${floor * 100} %`,
      byRate >= floor,
    );
  };
  share("/api/health (c=32)", "bare Fastify hello (c=32)", 0.25);
  for (const row of ["/user/me (c=32)", "/user/balance (c=32)", "/user/pulse (c=32)"])
    share(row, "/api/health (c=32)", 0.8);
  const many = `/user/balance, ${READERS.toLocaleString("en-US")} investors (c=32)`;
  share(many, "/api/health (c=32)", 0.8);
  const hitRates = rows(many)
    .map((x) => x.hitRate)
    .filter((x) => x !== null && x !== undefined);
  if (rows(many).length)
    aim(
      `cache hits, ${READERS.toLocaleString("en-US")} investors`,
      hitRates.length ? `${(median(hitRates) * 100).toFixed(1)} %` : "not counted by this server",
      "≥ 95 %",
      hitRates.length > 0 && median(hitRates) >= 0.95,
    );
  if (rows("deposit POST (c=32)").length) {
    const p99 = median(rows("deposit POST (c=32)").map((x) => x.p99));
    aim("deposit POST p99 (c=32)", `${p99} ms`, "≤ 250 ms", p99 <= 250);
  }
}
// The writes beside the reads of the same run: a refill's throughput as a share of /api/health's and the hello's.
for (const db of AIMS_ONLY || PAGE_ONLY ? [] : DBS) {
  const rate = (row) => median((results.get(`${db}|${row} (c=32)`) ?? []).map((x) => x.rps));
  const share = (row, of) => `${Math.round((rate(row) / rate(of)) * 100)} %`;
  console.log(
    `${db}: refills ${share("refill POST", "/api/health")} of /api/health, ${share("refill POST", "bare Fastify hello")} of the hello; with a key ${share("refill POST with Idempotency-Key", "/api/health")} and ${share("refill POST with Idempotency-Key", "bare Fastify hello")}`,
  );
}
// The request log's cost: throughput without it against with it, medians of the same rounds.
for (const db of AIMS_ONLY || PAGE_ONLY ? [] : DBS) {
  const cost = (path) => {
    const rate = (label) => median((results.get(`${db}|${path}, request log ${label} (c=32)`) ?? []).map((x) => x.rps));
    const off = rate("off");
    const on = rate("on");
    return off && on ? `${Math.round((1 - on / off) * 100)} %` : "?";
  };
  console.log(
    `${db}: the request log costs ${cost("/api/health")} of /api/health's throughput, ${WRITES_ONLY ? "" : `${cost("/user/pulse")} of pulse's, `}${cost("refill POST")} of the refill's`,
  );
}
