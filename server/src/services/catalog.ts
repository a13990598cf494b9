/**
 * What the cabinet offers: plans, payment systems and subscription options (the settings group of
 * calls, docs/cabinet-rules.md#api-calls). Amounts leave as normalized decimal strings.
 */
import type { PaymentSystem, Plan, SubscriptionOption } from "@contract";
import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { paymentSystems, plans, subscriptionOptions } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { getSetting } from "./settings";

/** Plans a deposit may be opened on now, in display order. */
export async function listAvailablePlans(db: Database): Promise<Plan[]> {
  const rows = await db.select().from(plans).where(eq(plans.active, true)).orderBy(asc(plans.sort), asc(plans.id));
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    currency: p.currency as Plan["currency"],
    dailyYieldPercent: normalizeDecimal(p.dailyYieldPercent),
    durationDays: p.durationDays,
    minAmount: normalizeDecimal(p.minAmount),
    maxAmount: normalizeDecimal(p.maxAmount),
  }));
}

/** Payment systems in display order, each with its block explorer template (the `explorers` setting) or null. */
export async function listPaymentSystems(db: Database): Promise<PaymentSystem[]> {
  const rows = await db.select().from(paymentSystems).orderBy(asc(paymentSystems.sort), asc(paymentSystems.id));
  const explorers: Record<string, string> = await getSetting(db, "explorers");
  return rows.map((s) => ({
    id: s.id,
    name: s.name,
    currency: s.currency as PaymentSystem["currency"],
    network: s.network,
    refillEnabled: s.refillEnabled,
    withdrawalEnabled: s.withdrawalEnabled,
    minWithdrawal: normalizeDecimal(s.minWithdrawal),
    maxWithdrawal: normalizeDecimal(s.maxWithdrawal),
    withdrawalFeePercent: normalizeDecimal(s.withdrawalFeePercent),
    explorerUrl: Object.hasOwn(explorers, s.id) ? (explorers[s.id] ?? null) : null,
  }));
}

export async function listSubscriptionOptions(db: Database): Promise<SubscriptionOption[]> {
  const rows = await db
    .select()
    .from(subscriptionOptions)
    .orderBy(asc(subscriptionOptions.sort), asc(subscriptionOptions.id));
  return rows.map((o) => ({
    id: o.id,
    title: o.title,
    price: normalizeDecimal(o.price),
    currency: o.currency as SubscriptionOption["currency"],
    durationDays: o.durationDays,
  }));
}
