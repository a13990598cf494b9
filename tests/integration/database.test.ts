/**
 * The embedded database folder: one process at a time (a lock file), a lock left by a dead
 * process is taken over, data survives a restart; the demo seed is guarded and idempotent; and drizzle's parsers
 * go into PGlite's table once instead of with every statement, with the same rows.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/src/db/client";
import { DataDirLockedError, lockPathFor, processStartTime, processState } from "../../server/src/db/lock";
import { parsersOnce } from "../../server/src/db/parsers-once";
import { resultRows } from "../../server/src/db/rows";
import * as dbSchema from "../../server/src/db/schema";
import { DEMO_PAYMENT_SYSTEMS } from "../../server/src/demo/catalog";
import { DEMO_DOWNLINE, DEMO_LOGIN, DEMO_PASSWORD, seedDemo } from "../../server/src/demo/seed";
import { verifyPassword } from "../../server/src/security/password";
import { pgliteTemplate, tempDirForTests } from "./helpers";

/**
 * The run's migrated database, for the tests about something else than creating one (the first two
 * tests below create and reopen a folder from nothing, as a first start does).
 */
const migrated = () => pgliteTemplate("migrated");

describe("the PGlite folder lock", () => {
  const tmp = tempDirForTests();
  const opened: { close(): Promise<void> }[] = [];

  afterEach(async () => {
    while (opened.length) await opened.pop()?.close();
  });

  it("refuses a second open of the same folder with a clear message, and frees it on close", async () => {
    const dataDir = path.join(tmp.dir, "db");
    // From the migrated copy: a folder made from nothing (initdb and every migration) is lean-start's and
    // start-memory's to test, and costs seconds here.
    const first = await openDatabase({ dataDir, initialData: migrated() });
    opened.push(first);
    expect(fs.readFileSync(lockPathFor(dataDir), "utf8").split("\n")[0]).toBe(String(process.pid));

    const second = openDatabase({ dataDir });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(`another Kassa process (pid ${process.pid}) uses ${dataDir}`);
    await expect(second).rejects.toThrow(/stop it or set DATA_DIR/);

    await first.close();
    expect(fs.existsSync(lockPathFor(dataDir))).toBe(false);
    const again = await openDatabase({ dataDir });
    opened.push(again);
    expect(again.kind).toBe("pglite");
  });

  it("keeps the data across a close and a reopen", async () => {
    const dataDir = path.join(tmp.dir, "persist");
    const first = await openDatabase({ dataDir, initialData: migrated() });
    await first.db.insert(dbSchema.settings).values({ key: "probe", value: "kept" });
    await first.close();
    const second = await openDatabase({ dataDir });
    opened.push(second);
    const rows = await second.db.select().from(dbSchema.settings).where(eq(dbSchema.settings.key, "probe"));
    expect(rows[0]?.value).toBe("kept");
  });

  it("takes over a lock whose process has died", async () => {
    const dataDir = path.join(tmp.dir, "stale");
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const deadPid = Number(dead.stdout);
    expect(deadPid).toBeGreaterThan(0);
    fs.writeFileSync(lockPathFor(dataDir), `${deadPid}\n`);
    const handle = await openDatabase({ dataDir, initialData: migrated() });
    opened.push(handle);
    expect(fs.readFileSync(lockPathFor(dataDir), "utf8").split("\n")[0]).toBe(String(process.pid));
  });

  it("takes over a lock holding this very pid that this process never took (a restarted container's PID 1)", async () => {
    const dataDir = path.join(tmp.dir, "own-pid");
    fs.writeFileSync(lockPathFor(dataDir), `${process.pid}\n`);
    const handle = await openDatabase({ dataDir, initialData: migrated() });
    opened.push(handle);
    expect(fs.readFileSync(lockPathFor(dataDir), "utf8").split("\n")[0]).toBe(String(process.pid));
  });

  it("takes over a lock whose pid now belongs to a process that started at another time", async () => {
    const dataDir = path.join(tmp.dir, "reused-pid");
    // The parent process lives, but it is not the one that wrote this lock (its start time differs).
    expect(processStartTime(process.ppid)).not.toBeNull();
    fs.writeFileSync(lockPathFor(dataDir), `${process.ppid}\n1\n`);
    const handle = await openDatabase({ dataDir, initialData: migrated() });
    opened.push(handle);
    expect(fs.readFileSync(lockPathFor(dataDir), "utf8").split("\n")[0]).toBe(String(process.pid));
  });

  it("takes over a lock whose owner was killed and is a zombie nobody reaps", async () => {
    const dataDir = path.join(tmp.dir, "zombie-owner");
    // sh starts a short child, then becomes `sleep`, which never waits for it: the child stays a zombie.
    const parent = spawn("sh", ["-c", "sleep 0.1 & echo $!; exec sleep 60"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const pid = Number((await new Promise<Buffer>((resolve) => parent.stdout.once("data", resolve))).toString());
      const startTime = processStartTime(pid);
      for (let i = 0; i < 100 && processState(pid) !== "Z"; i++) await new Promise((r) => setTimeout(r, 20));
      expect(processState(pid)).toBe("Z");
      fs.writeFileSync(lockPathFor(dataDir), `${pid}\n${startTime}\n`);
      const handle = await openDatabase({ dataDir, initialData: migrated() });
      opened.push(handle);
      expect(fs.readFileSync(lockPathFor(dataDir), "utf8").split("\n")[0]).toBe(String(process.pid));
    } finally {
      parent.kill("SIGKILL");
    }
  });

  it("still refuses a lock whose owner lives and started when the lock says", async () => {
    const dataDir = path.join(tmp.dir, "live-owner");
    const owner = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      const pid = owner.pid ?? 0;
      fs.writeFileSync(lockPathFor(dataDir), `${pid}\n${processStartTime(pid)}\n`);
      await expect(openDatabase({ dataDir })).rejects.toThrow(`another Kassa process (pid ${pid})`);
    } finally {
      owner.kill("SIGKILL");
    }
  });

  it("needs no lock for an in-memory database", async () => {
    const a = await openDatabase({ dataDir: "memory", initialData: migrated() });
    const b = await openDatabase({ dataDir: "memory", initialData: migrated() });
    opened.push(a, b);
    expect([a.kind, b.kind]).toEqual(["pglite", "pglite"]);
  });
});

describe("seedDemo", () => {
  let handle: Awaited<ReturnType<typeof openDatabase>>;

  beforeAll(async () => {
    handle = await openDatabase({ dataDir: "memory", initialData: migrated() });
  });

  afterAll(async () => {
    await handle?.close();
  });

  it("seeds an empty database once, then changes nothing", async () => {
    expect(await seedDemo(handle.db)).toBe(true);
    expect(await seedDemo(handle.db)).toBe(false);
    const [users] = await handle.db.select({ n: count() }).from(dbSchema.users);
    const [news] = await handle.db.select({ n: count() }).from(dbSchema.news);
    // The house account, the demo investor and the demo's partners.
    expect(users?.n).toBe(2 + DEMO_DOWNLINE.length);
    expect(news?.n).toBe(3);
  });

  it("stores the demo password as an argon2id hash with m=19456, t=2, p=1", async () => {
    const [demo] = await handle.db
      .select()
      .from(dbSchema.users)
      .where(sql`lower(${dbSchema.users.login}) = ${DEMO_LOGIN}`);
    expect(demo?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(demo?.passwordHash ?? "", DEMO_PASSWORD)).toBe(true);
    expect(await verifyPassword(demo?.passwordHash ?? "", "demo2026Pass")).toBe(false);
  });

  it("refuses a second login differing only in letter case", async () => {
    await expect(handle.db.insert(dbSchema.users).values({ login: "DEMO" })).rejects.toThrow();
  });

  it("writes news in all four languages", async () => {
    const rows = await handle.db.select().from(dbSchema.news);
    for (const item of rows) {
      for (const text of [item.title, item.body]) {
        expect(Object.keys(text).sort()).toEqual(["de", "en", "kk", "ru"]);
        for (const value of Object.values(text)) expect(value.length).toBeGreaterThan(3);
      }
    }
  });

  it("gives every payment system a demo address its own pattern accepts", () => {
    for (const system of DEMO_PAYMENT_SYSTEMS) {
      expect(system.address, system.id).toMatch(new RegExp(system.addressPattern));
    }
  });
});

describe("drizzle's parsers in PGlite's table once (parsers-once.ts)", () => {
  const TIMES = sql`select '2026-01-02 03:04:05.678+00'::timestamptz as at, '2026-01-02 03:04:05'::timestamp as local,
    '1 day 02:00:00'::interval as span, '2026-01-02'::date as day,
    array['2026-01-02 03:04:05.678+00'::timestamptz] as ats, array[1.5, 2]::numeric[] as amounts`;
  const AS_SENT = {
    at: "2026-01-02 03:04:05.678+00",
    local: "2026-01-02 03:04:05",
    span: "1 day 02:00:00",
    day: "2026-01-02",
    ats: '{"2026-01-02 03:04:05.678+00"}',
    amounts: "{1.5,2}",
  };

  it("reads dates, times, intervals and their arrays as the text PostgreSQL sent, in and out of a transaction", async () => {
    const handle = await openDatabase({ dataDir: "memory", initialData: migrated() });
    try {
      expect(resultRows(await handle.db.execute(TIMES))).toEqual([AS_SENT]);
      expect(await handle.db.transaction(async (tx) => resultRows(await tx.execute(TIMES)))).toEqual([AS_SENT]);
      // A select with fields: drizzle's other statement options (rows as arrays).
      const at = sql<string>`'2026-01-02 03:04:05.678+00'::timestamptz`;
      expect(await handle.db.select({ at }).from(sql`(select 1) as one`)).toEqual([{ at: AS_SENT.at }]);
    } finally {
      await handle.close();
    }
  });

  it("leaves out a statement's parsers that hand the text on, and passes on one that does more", async () => {
    const sent: { parsers?: unknown }[] = [];
    const record = async (_text: string, _params?: unknown[], options?: { parsers?: unknown }) => {
      sent.push({ parsers: options?.parsers });
      return { rows: [] };
    };
    const client = {
      parsers: { 1184: (value: string) => new Date(value) } as Record<number, unknown>,
      query: record,
      transaction: async (callback: (tx: { query: typeof record }) => Promise<unknown>) => callback({ query: record }),
    };
    parsersOnce(client as unknown as Parameters<typeof parsersOnce>[0]);
    const asText = { 1184: (value: string) => value, 1182: (value: string) => value };
    const toNumber = { 1184: (value: string) => value, 1700: (value: string) => Number(value) };
    await client.query("select 1", [], { parsers: asText });
    await client.query("select 1", [], { parsers: toNumber });
    await client.transaction(async (tx) => {
      await tx.query("select 1", [], { parsers: asText });
      await tx.query("select 1", [], { parsers: toNumber });
    });
    expect(sent.map((s) => s.parsers)).toEqual([undefined, toNumber, undefined, toNumber]);
    expect((client.parsers[1184] as (value: string) => unknown)("2026-01-02")).toBe("2026-01-02");
  });
});
