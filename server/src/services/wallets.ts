/**
 * The user's withdrawal wallets: one address per payment system, checked against the system's
 * `address_pattern`. An empty address removes the wallet. A new or changed address is stored only
 * with a code sent to the user's code channel (a stolen session alone cannot redirect the next
 * withdrawal), and the user is then told that a wallet changed: through that channel, and by a
 * `wallet_changed` notification (in the app, and in the Telegram chat through the chat outbox).
 */
import { createHash } from "node:crypto";
import {
  type CodeSentReply,
  type ValidationCode,
  WALLET_ADDRESS_FORMAT,
  type WalletsReply,
  type WalletsUpdateBody,
  type WalletsUpdateReply,
} from "@contract";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Clock } from "../clock";
import type { ServiceContext } from "../context";
import type { Database } from "../db/client";
import { paymentSystems, wallets } from "../db/schema";
import { AppError } from "../errors";
import type { RequestMeta } from "./auth";
import { issueCode } from "./codes";
import { queueNotice, sendNoticesNow } from "./notice-outbox";
import { notify } from "./notifications";
import { findUserById } from "./users";
import { assertWithdrawalsOpen, enterWithdrawalCode } from "./withdrawals";

type PaymentSystemRow = typeof paymentSystems.$inferSelect;

export async function listWallets(db: Database, userId: string): Promise<WalletsReply> {
  return db
    .select({ paymentSystemId: wallets.paymentSystemId, address: wallets.address })
    .from(wallets)
    .innerJoin(paymentSystems, eq(paymentSystems.id, wallets.paymentSystemId))
    .where(eq(wallets.userId, userId))
    .orderBy(asc(paymentSystems.sort), asc(paymentSystems.id));
}

/** Whether `address` fits the payment system's pattern (a broken pattern accepts nothing). */
function addressMatches(pattern: string, address: string): boolean {
  try {
    return new RegExp(pattern).test(address);
  } catch {
    return false;
  }
}

/**
 * Every entry checked (unknown payment system → `wallets.<i>.paymentSystemId: required`; an address
 * not in its format → `wallets.<i>.address: addressFormat`); returns the systems named.
 */
async function checkEntries(db: Database, body: WalletsUpdateBody): Promise<PaymentSystemRow[]> {
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
  return systems;
}

/**
 * Stores the wallets as given, with no code: for the server's own callers (the demo seed, tests'
 * set-up). Every entry is checked first, then all are applied in one transaction; wallets not named
 * stay as they are.
 */
export async function updateWallets(
  deps: { db: Database; clock: Clock },
  userId: string,
  body: Pick<WalletsUpdateBody, "wallets">,
): Promise<WalletsReply> {
  const { db } = deps;
  await checkEntries(db, body);
  const now = deps.clock.now();
  await db.transaction((tx) => storeWallets(tx, userId, body.wallets, now));
  return listWallets(db, userId);
}

/** Applies checked entries inside the caller's transaction: an empty address removes the wallet. */
async function storeWallets(
  tx: Database,
  userId: string,
  entries: WalletsUpdateBody["wallets"],
  now: Date,
): Promise<void> {
  for (const w of entries) {
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
}

/**
 * What a code for these new or changed addresses confirms: a digest of exactly them, so a code sent
 * for one address does not store another.
 */
function walletCodeTarget(changes: readonly { paymentSystemId: string; address: string }[]): string {
  const canonical = [...changes]
    .map((w) => [w.paymentSystemId, w.address])
    .sort(([a = ""], [b = ""]) => (a < b ? -1 : a > b ? 1 : 0));
  return `wallet:${createHash("sha256").update(JSON.stringify(canonical)).digest("hex")}`;
}

/**
 * `PATCH /user-data/wallets/update`. Entries are checked as `updateWallets` does. Removals and
 * unchanged addresses are stored at once. When an entry adds or changes an address, the call without
 * `code` stores nothing and sends a code (purpose `wallet`, for exactly these addresses) through
 * the user's code channel: `walletCode` in the reply; the resend wait, RATE_LIMIT_CODE_REQUEST_* and
 * a withdrawal lock apply. The same wallets with `code` are stored once the code is right; its
 * entries share the withdrawal codes' budgets (RATE_LIMIT_WITHDRAWAL_CODE_*, the day's wrong codes
 * that lock withdrawals). Then the user is told through the code channel that a wallet changed.
 */
export async function changeWallets(
  deps: ServiceContext,
  userId: string,
  body: WalletsUpdateBody,
  meta: RequestMeta,
): Promise<WalletsUpdateReply> {
  const systems = await checkEntries(deps.db, body);
  const current = await listWallets(deps.db, userId);
  const changes = body.wallets.filter(
    (w) => w.address !== "" && current.find((c) => c.paymentSystemId === w.paymentSystemId)?.address !== w.address,
  );
  if (changes.length === 0) return { wallets: await updateWallets(deps, userId, body), walletCode: null };

  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError("SESSION_TIMEOUT");
  const target = walletCodeTarget(changes);
  if (body.code === undefined) {
    await assertWithdrawalsOpen(deps, userId);
    const limits = deps.env.RATE_LIMITS;
    await deps.limiter.check(`code-request-ip:${meta.ip}`, limits.codeRequestIp);
    await deps.limiter.check(`code-request-account:${userId}`, limits.codeRequestAccount);
    const sent = (await issueCode(deps, user, "wallet", {
      target,
      scope: "target",
      whenWaiting: "refuse",
    })) as CodeSentReply;
    await deps.limiter.hit(`code-request-ip:${meta.ip}`, limits.codeRequestIp);
    await deps.limiter.hit(`code-request-account:${userId}`, limits.codeRequestAccount);
    return { wallets: current, walletCode: sent };
  }

  await enterWithdrawalCode(deps, userId, meta, body.code, { purpose: "wallet", target });
  const now = deps.clock.now();
  // The notification (in the app, and in the chat through the outbox) exists exactly when the change does.
  await deps.db.transaction(async (tx) => {
    await storeWallets(tx, userId, body.wallets, now);
    const [date = "", time = ""] = now.toISOString().slice(0, 16).split("T");
    await notify(tx, userId, "wallet_changed", { systems: systemNames(changes, systems), date, time }, now);
    // And through the code channel with the new addresses, unless the chat hears of it already.
    const wallets = changes.map((w) => `${systemName(w, systems)}: ${w.address}`).join("\n");
    await queueNotice(tx, userId, "wallet_changed", { wallets });
  });
  await sendNoticesNow(deps, userId);
  return { wallets: await listWallets(deps.db, userId), walletCode: null };
}

/** `USDT (TRC20)` for each entry's payment system (its id when unknown). */
function systemName(entry: { paymentSystemId: string }, systems: readonly PaymentSystemRow[]): string {
  const system = systems.find((s) => s.id === entry.paymentSystemId);
  return system ? `${system.currency} (${system.network})` : entry.paymentSystemId;
}

const systemNames = (changes: readonly { paymentSystemId: string }[], systems: readonly PaymentSystemRow[]) =>
  changes.map((w) => systemName(w, systems)).join(", ");
