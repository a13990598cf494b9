/**
 * The user's withdrawal wallets: one address per payment system, checked against the system's
 * `address_pattern`. An empty address removes the wallet.
 */
import { type ValidationCode, WALLET_ADDRESS_FORMAT, type WalletsReply, type WalletsUpdateBody } from "@contract";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { paymentSystems, wallets } from "../db/schema";
import { AppError } from "../errors";

export async function listWallets(db: Database, userId: string): Promise<WalletsReply> {
  return db
    .select({ paymentSystemId: wallets.paymentSystemId, address: wallets.address })
    .from(wallets)
    .innerJoin(paymentSystems, eq(paymentSystems.id, wallets.paymentSystemId))
    .where(eq(wallets.userId, userId))
    .orderBy(asc(paymentSystems.sort), asc(paymentSystems.id));
}

/** Whether `address` fits the payment system's pattern (a broken pattern accepts nothing). */
export function addressMatches(pattern: string, address: string): boolean {
  try {
    return new RegExp(pattern).test(address);
  } catch {
    return false;
  }
}

/**
 * `PATCH /user-data/wallets/update`: every entry is checked first (unknown payment system →
 * `wallets.<i>.paymentSystemId: required`; an address not in its format → `wallets.<i>.address:
 * addressFormat`), then all are applied in one transaction. Wallets not named stay as they are.
 */
export async function updateWallets(
  deps: { db: Database; clock: Clock },
  userId: string,
  body: WalletsUpdateBody,
): Promise<WalletsReply> {
  const { db } = deps;
  const ids = [...new Set(body.wallets.map((w) => w.paymentSystemId))];
  const systems = ids.length === 0 ? [] : await db.select().from(paymentSystems).where(inArray(paymentSystems.id, ids));
  const fields: Record<string, ValidationCode> = {};
  body.wallets.forEach((w, i) => {
    const system = systems.find((s) => s.id === w.paymentSystemId);
    if (!system) fields[`wallets.${i}.paymentSystemId`] = "required";
    else if (w.address !== "" && !addressMatches(system.addressPattern, w.address))
      fields[`wallets.${i}.address`] = WALLET_ADDRESS_FORMAT;
  });
  if (Object.keys(fields).length > 0) throw new AppError("VALIDATION_FAILED", { fields });

  const now = deps.clock.now();
  await db.transaction(async (tx) => {
    for (const w of body.wallets) {
      if (w.address === "") {
        await tx.delete(wallets).where(and(eq(wallets.userId, userId), eq(wallets.paymentSystemId, w.paymentSystemId)));
      } else {
        await tx
          .insert(wallets)
          .values({ userId, paymentSystemId: w.paymentSystemId, address: w.address, updatedAt: now })
          .onConflictDoUpdate({
            target: [wallets.userId, wallets.paymentSystemId],
            set: { address: w.address, updatedAt: now },
          });
      }
    }
  });
  return listWallets(db, userId);
}
