/** Helpers of the partners and withdrawal tests: investors invited by a given upline. */
import { randomUUID } from "node:crypto";
import type { Clock } from "../../server/src/clock";
import type { DatabaseHandle } from "../../server/src/db/client";
import * as schema from "../../server/src/db/schema";
import { createSession } from "../../server/src/services/sessions";
import type { Investor } from "./money";

let made = 0;

/** A new investor invited by `inviterId`, with a live session. */
export async function newPartner(
  db: DatabaseHandle["db"],
  clock: Clock,
  inviterId: string | null,
  prefix = "p",
): Promise<Investor> {
  made += 1;
  const login = `${prefix}${process.pid % 10_000}x${made}x${randomUUID().slice(0, 6)}`;
  const [row] = await db
    .insert(schema.users)
    .values({ login, fullName: "Partner Test", language: "en", inviterId, createdAt: clock.now() })
    .returning({ id: schema.users.id });
  if (!row) throw new Error("user not created");
  const token = await createSession(db, clock, { userId: row.id, ttlDays: 3650 });
  return { id: row.id, login, token };
}
