/**
 * PGlite's limiter never forgets an account's budget (docs/security.md, "Limiter storage"): a flood of more
 * per-address keys than the memory holds leaves a victim's wrong-password count as it was, and the memory
 * forgets its least recently used keys first, not a key in use; at its cap a new key does not walk every key.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { createLimiter, MemoryBackend } from "../../server/src/security/rate-limit";
import { pgliteTemplate } from "./helpers";

const clock = fixedClock("2026-06-01T06:00:00Z");
const DAY_RULE = { max: Number.MAX_SAFE_INTEGER, windowSeconds: 86_400 };
const IP_RULE = { max: 100, windowSeconds: 3600 };
/** More than the memory's 100,000 keys. */
const FLOOD = 100_500;
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openDatabase({ initialData: pgliteTemplate("migrated") });
}, 120_000);
afterAll(async () => {
  await handle?.close();
});

describe("the PGlite limiter under a flood of addresses", () => {
  it("keeps the victim's account budget and forgets the least recently used address first", async () => {
    const limiter = createLimiter({ clock, db: handle.db, shared: false });
    const victim = "login-failures:6a1f7c1e-0000-4000-8000-000000000001";
    for (let n = 0; n < 12; n++) await limiter.count(victim, DAY_RULE);
    const kept = "login-ip:192.0.2.1";
    await limiter.hit(kept, IP_RULE);
    for (let n = 0; n < FLOOD; n++) {
      await limiter.hit(`login-ip:10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, IP_RULE);
      // The owner's address keeps using the server now and then: in use, so not the first forgotten.
      if (n % 20_000 === 0) await limiter.hit(kept, IP_RULE);
    }
    // The 13th failure of the day: the twelve before it were not forgotten.
    expect(await limiter.count(victim, DAY_RULE)).toBe(13);
    // The address used during the flood is still counted (7 hits); the flood's first key is gone.
    await limiter.hit(kept, IP_RULE);
    expect(await limiter.retryAfter(kept, { max: 8, windowSeconds: 3600 })).toBeGreaterThan(0);
    expect(await limiter.retryAfter("login-ip:10.0.0.0", { max: 1, windowSeconds: 3600 })).toBe(0);
  }, 300_000);
});

describe("the memory's per-address counters at their cap", () => {
  it("walks every key once per thousand new keys, not once per key, and still sweeps the ended windows", async () => {
    const memory = new MemoryBackend(100);
    const walks = vi.spyOn(memory, "purge");
    const now = clock.now();
    const ended = new Date(now.getTime() - 1000);
    const open = new Date(now.getTime() + 3_600_000);
    // Full at once; then a flood of new keys: each drops the least recently used, none walks the whole map.
    for (let n = 0; n < 100; n++) await memory.upsert(`login-ip:192.0.2.${n}`, 1, now, open, false);
    for (let n = 0; n < 2_400; n++) await memory.upsert(`login-ip:10.0.${n >> 8}.${n & 255}`, 1, now, open, false);
    expect(memory.size).toBe(100);
    expect(walks).toHaveBeenCalledTimes(2);
    expect(await memory.get("login-ip:10.0.8.252", now)).not.toBeNull();
    expect(await memory.get("login-ip:10.0.8.251", now)).toBeNull();
    expect(await memory.get("login-ip:192.0.2.99", now)).toBeNull();
    // Counters whose window has ended go at the next walk, without the cap's help.
    const roomy = new MemoryBackend();
    for (let n = 0; n < 999; n++) await roomy.upsert(`login-ip:10.1.${n >> 8}.${n & 255}`, 1, ended, ended, false);
    expect(roomy.size).toBe(999);
    await roomy.upsert("login-ip:192.0.2.1", 1, now, open, false);
    expect(roomy.size).toBe(1);
  });
});
