/**
 * `POST /user/subscription` (the user is prompted to activate a subscription, docs/cabinet-rules.md#product). The
 * option's price leaves the balance in the option's currency as a `subscription` operation (the
 * ledger's conditional debit: 409 INSUFFICIENT_FUNDS 'Not enough funds' when short) and
 * `subscription_until` moves `durationDays` forward from the later of now and the current end, in
 * one transaction with the user's row locked, so two payments at once extend it twice, never once.
 */
import { type Currency, compareAmounts, DAY_MS, type SubscriptionReply } from "@contract";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { userChanging } from "../db/change-feed";
import { subscriptionOptions, users } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";
import { getBalance } from "./balance";
import { post } from "./ledger";
import { notify } from "./notifications";
import { lockUser, userView } from "./users";

export async function subscribe(
  deps: Pick<ServiceContext, "db" | "clock">,
  userId: string,
  optionId: string,
): Promise<SubscriptionReply> {
  const { db, clock } = deps;
  const [option] = await db.select().from(subscriptionOptions).where(eq(subscriptionOptions.id, optionId)).limit(1);
  if (!option) throw new AppError("VALIDATION_FAILED", { fields: { optionId: "required" } });
  const row = await db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (!user) throw new AppError("SESSION_TIMEOUT");
    const now = clock.now();
    const price = normalizeDecimal(option.price);
    if (compareAmounts(price, 0) > 0) {
      await post(tx, {
        userId,
        currency: option.currency as Currency,
        type: "subscription",
        amount: `-${price}`,
        meta: { subscriptionOptionId: option.id, durationDays: option.durationDays },
        at: now,
      });
    }
    const from = user.subscriptionUntil && user.subscriptionUntil > now ? user.subscriptionUntil : now;
    const until = new Date(from.getTime() + option.durationDays * DAY_MS);
    userChanging(userId);
    const [updated] = await tx.update(users).set({ subscriptionUntil: until }).where(eq(users.id, userId)).returning();
    if (!updated) throw new Error("user vanished while locked");
    await notify(tx, userId, "subscription_activated", { until: until.toISOString(), optionId: option.id }, now);
    return updated;
  });
  const balance = await getBalance(db, userId);
  return { user: await userView(db, clock, row), currencies: balance.currencies };
}
