// `npm run bench:audit`: the operator's ledger audit (`auditLedger`, one statement) at a production database's size
// on a throw-away PostgreSQL: 50,000 investors, 1,000,000 operations, one balance made wrong on purpose. Five runs,
// medians, beside its ceiling in the same run (a bare grouped sum of the operations, what any audit must read) and
// beside the audit as it was before (both sides read into JavaScript and compared there), with the load average.
// Not a test: nothing fails on a figure.
import { loadavg } from "node:os";
import { compareAmounts } from "@contract";
import { sql } from "drizzle-orm";
import { startPostgres } from "../scripts/lib/postgres.mjs";
import { findPostgresBin } from "../scripts/lib/system.mjs";
import { openDatabase } from "../server/src/db/client";
import { balances, operations } from "../server/src/db/schema";
import { normalizeDecimal } from "../server/src/decimal";
import { auditLedger } from "../server/src/services/ledger";

const bin = findPostgresBin();
if (!bin) throw new Error("bench:audit needs PostgreSQL's programs (Debian's postgresql package)");
const pg = await startPostgres(bin);
const h = await openDatabase({ databaseUrl: pg.url });
try {
  const db = h.db;
  const N = 50_000,
    OPS = 1_000_000;
  await db.execute(
    sql.raw(
      `insert into users (id, login, created_at) select md5('a-' || i)::uuid, 'audit_' || i, now() from generate_series(1, ${N}) i`,
    ),
  );
  await db.execute(
    sql.raw(
      `insert into operations (user_id, currency, type, amount, created_at) select md5('a-' || (1 + i % ${N}))::uuid, case when i % 3 = 0 then 'TON' else 'USDT' end, 'refill', (1 + i % 1000) / 7.0, now() from generate_series(1, ${OPS}) i`,
    ),
  );
  await db.execute(
    sql.raw(
      `insert into balances (user_id, currency, amount) select user_id, currency, sum(amount) from operations group by user_id, currency`,
    ),
  );
  await db.execute(
    sql.raw(`update balances set amount = amount + 1 where user_id = md5('a-7')::uuid and currency = 'USDT'`),
  );
  await db.execute(sql.raw(`vacuum analyze`));

  /** The audit before `f3bbdc4` (its code as it was), for the comparison. */
  async function oldAudit() {
    const sums = await db
      .select({
        userId: operations.userId,
        currency: operations.currency,
        total: sql<string>`sum(${operations.amount})::text`,
      })
      .from(operations)
      .groupBy(operations.userId, operations.currency);
    const rows = await db
      .select({ userId: balances.userId, currency: balances.currency, amount: balances.amount })
      .from(balances);
    const found = new Map<string, { userId: string; currency: string; balance: string; operationsSum: string }>();
    const key = (u: string, c: string) => `${u}/${c}`;
    for (const r of rows)
      found.set(key(r.userId, r.currency), {
        userId: r.userId,
        currency: r.currency,
        balance: r.amount,
        operationsSum: "0",
      });
    for (const s of sums) {
      const k = key(s.userId, s.currency);
      const e = found.get(k) ?? { userId: s.userId, currency: s.currency, balance: "0", operationsSum: "0" };
      e.operationsSum = s.total;
      found.set(k, e);
    }
    return [...found.values()]
      .filter((e) => compareAmounts(e.balance, e.operationsSum) !== 0 || compareAmounts(e.balance, 0) < 0)
      .map((e) => ({ ...e, balance: normalizeDecimal(e.balance), operationsSum: normalizeDecimal(e.operationsSum) }));
  }
  const scan = () =>
    db.execute(sql.raw(`select count(*) from (select user_id, currency, sum(amount) from operations group by 1, 2) s`));
  const time = async (f: () => Promise<unknown>) => {
    const c = process.cpuUsage();
    const t = performance.now();
    const r = await f();
    const u = process.cpuUsage(c);
    return { ms: performance.now() - t, nodeCpu: (u.user + u.system) / 1000, r };
  };
  console.log(
    "load before",
    loadavg()
      .map((x) => x.toFixed(2))
      .join(" "),
  );
  const res = { scan: [] as number[], old: [] as number[], new: [] as number[] };
  const cpu = { scan: [] as number[], old: [] as number[], new: [] as number[] };
  for (let i = 0; i < 5; i++)
    for (const [name, f] of [
      ["scan", scan],
      ["old", oldAudit],
      ["new", () => auditLedger(db)],
    ] as const) {
      const x = await time(f);
      res[name].push(x.ms);
      cpu[name].push(x.nodeCpu);
      if (name !== "scan" && i === 0)
        console.log(name, "found", JSON.stringify((x.r as unknown[]).length), JSON.stringify((x.r as unknown[])[0]));
    }
  const med = (a: number[]) => a.sort((p, q) => p - q)[2] ?? Number.NaN;
  for (const k of ["scan", "old", "new"] as const)
    console.log(
      `${k}: median ${med(res[k]).toFixed(0)} ms (node CPU ${med(cpu[k]).toFixed(0)} ms), ${(med(res[k]) / med(res.scan)).toFixed(2)}x the scan`,
    );
  console.log(
    "load after",
    loadavg()
      .map((x) => x.toFixed(2))
      .join(" "),
  );
} finally {
  await h.close();
  pg.stop();
}
