/**
 * What the cabinet offers: plans, payment systems and subscription options (the settings group of
 * calls, docs/cabinet-rules.md#api-calls). Amounts leave as normalized decimal strings.
 */
import type { PaymentSystem, Plan, SubscriptionOption } from "@contract";
import { asc, eq } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { paymentSystems, plans, subscriptionOptions } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";
import { getSetting, setSetting } from "./settings";

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

/**
 * Sets (or, with null, removes) the block explorer of one payment system in the `explorers` setting; an
 * unknown payment system is 404 NOT_FOUND. Returns the payment system as the app sees it.
 */
export async function setExplorer(
  db: Database,
  clock: Clock,
  paymentSystemId: string,
  template: string | null,
): Promise<PaymentSystem> {
  const [system] = await db
    .select({ id: paymentSystems.id })
    .from(paymentSystems)
    .where(eq(paymentSystems.id, paymentSystemId));
  const missing = () => new AppError("NOT_FOUND", { params: { paymentSystem: paymentSystemId } });
  if (!system) throw missing();
  const explorers: Record<string, string> = { ...(await getSetting(db, "explorers")) };
  if (template === null) delete explorers[system.id];
  else explorers[system.id] = template;
  await setSetting(db, clock, "explorers", explorers);
  const updated = (await listPaymentSystems(db)).find((s) => s.id === system.id);
  if (!updated) throw missing();
  return updated;
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
