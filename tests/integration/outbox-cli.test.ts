/** `kassa outbox list --given-up` and `kassa outbox resend` straight on the PGlite folder (no server running). */
import path from "node:path";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import { chatOutbox, users } from "../../server/src/db/schema";
import { notify } from "../../server/src/services/notifications";
import { kassa } from "./cli";
import { copyTemplateFolder, tempDirForTests } from "./helpers";
import { newInvestor } from "./money";

const tmp = tempDirForTests();
it("lists a given-up chat message and queues it again, on the database itself", async () => {
  const dataDir = path.join(tmp.dir, "pglite");
  // A new folder: a copy of the run's migrated one (as a server's new folder starts from the build's ready copy), not initdb.
  copyTemplateFolder("migrated", dataDir);
  let handle = await openDatabase({ dataDir });
  const investor = await newInvestor(handle.db, systemClock);
  await handle.db.update(users).set({ telegramId: 990_000_001 }).where(eq(users.id, investor.id));
  await notify(handle.db, investor.id, "refill_credited", { amount: "5", currency: "USDT" }, systemClock.now());
  const [row] = await handle.db
    .update(chatOutbox)
    .set({ failedAt: systemClock.now(), attempts: 3, lastError: "400: Bad Request: chat not found" })
    .where(eq(chatOutbox.userId, investor.id))
    .returning();
  await handle.close();
  const id = String(row?.id);

  const cli = (...args: string[]) => kassa(args, { DATA_DIR: dataDir });
  const list = await cli("outbox", "list", "--given-up");
  expect(list.code, list.stderr).toBe(0);
  expect(list.stdout).toMatch(new RegExp(`^${id} +${investor.login} +refill_credited .* tries 3 +given up `, "m"));
  expect(list.stdout).toContain("last error: 400: Bad Request: chat not found");
  expect((await cli("outbox", "list")).stdout).toContain("No chat messages waiting.");

  const resend = await cli("outbox", "resend", id);
  expect(resend.code, resend.stderr).toBe(0);
  expect(resend.stdout).toContain(`Chat message ${id} queued again`);
  expect((await cli("outbox", "list")).stdout).toMatch(new RegExp(`^${id} .* tries 0 +next `, "m"));
  expect((await cli("outbox", "list", "--given-up")).stdout).toContain("No chat messages given up.");
  // Nothing given up under that id any more, and an id that is not one: refused, exit code 1.
  expect((await cli("outbox", "resend", id)).code).toBe(1);
  expect((await cli("outbox", "resend", "not-an-id")).code).toBe(1);

  handle = await openDatabase({ dataDir });
  try {
    const [after] = await handle.db.select().from(chatOutbox).where(eq(chatOutbox.id, id));
    expect(after).toMatchObject({ failedAt: null, sentAt: null, attempts: 0 });
  } finally {
    await handle.close();
  }
});
