/**
 * What the cabinet offers: plans, payment systems and subscription options (the settings group of
 * calls, docs/cabinet-rules.md#api-calls). Amounts leave as normalized decimal strings.
 */
import { compareAmounts, type PaymentSystem, type Plan, type SubscriptionOption, type ValidationCode } from "@contract";
import type { Catalog, CatalogApplyReply } from "@contract/operator";
import { asc, eq, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Clock } from "../clock";
import { keptOf } from "../db/change-feed";
import type { Database } from "../db/client";
import { cryptoCases, paymentSystems, plans, subscriptionOptions } from "../db/schema";
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

/** Amount columns keep 18 decimals, percentages 8: a longer figure would be rounded without a word. */
const AMOUNT_DECIMALS = 18;
const PERCENT_DECIMALS = 8;
const decimals = (value: string) => value.split(".")[1]?.length ?? 0;

/**
 * The whole catalogue as an operator edits it (`kassa catalog show`): inactive plans and cases, disabled
 * payment systems and the deposit addresses included, in the shape `applyCatalog` takes back.
 */
export async function readCatalog(db: Database): Promise<Catalog> {
  const [planRows, systemRows, optionRows, caseRows] = await Promise.all([
    db.select().from(plans).orderBy(asc(plans.sort), asc(plans.id)),
    db.select().from(paymentSystems).orderBy(asc(paymentSystems.sort), asc(paymentSystems.id)),
    db.select().from(subscriptionOptions).orderBy(asc(subscriptionOptions.sort), asc(subscriptionOptions.id)),
    db.select().from(cryptoCases).orderBy(asc(cryptoCases.sort), asc(cryptoCases.id)),
  ]);
  return {
    plans: planRows.map((p) => ({
      ...p,
      currency: p.currency as Plan["currency"],
      dailyYieldPercent: normalizeDecimal(p.dailyYieldPercent),
      minAmount: normalizeDecimal(p.minAmount),
      maxAmount: normalizeDecimal(p.maxAmount),
    })),
    paymentSystems: systemRows.map((s) => ({
      ...s,
      currency: s.currency as PaymentSystem["currency"],
      minWithdrawal: normalizeDecimal(s.minWithdrawal),
      maxWithdrawal: normalizeDecimal(s.maxWithdrawal),
      withdrawalFeePercent: normalizeDecimal(s.withdrawalFeePercent),
    })),
    subscriptionOptions: optionRows.map((o) => ({
      ...o,
      currency: o.currency as SubscriptionOption["currency"],
      price: normalizeDecimal(o.price),
    })),
    cryptoCases: caseRows.map((c) => ({ ...c, riskLevel: c.riskLevel as "low" | "medium" | "high" })),
  };
}

/**
 * The rules a catalogue file must keep beyond its schema, each broken one a field of 400 VALIDATION_FAILED
 * (`plans.1.maxAmount`): ids once per section, min ≤ max, no more decimals than the columns keep, a fee
 * under 100 %, an address pattern that compiles and the deposit address matching it, and every plan of a
 * crypto case in the file or already in the catalogue.
 */
function checkCatalog(catalog: Catalog, knownPlanIds: Set<string>): void {
  const fields: Record<string, ValidationCode> = {};
  const once = (section: string, entries: { id: string }[] | undefined) => {
    const seen = new Set<string>();
    entries?.forEach((entry, i) => {
      if (seen.has(entry.id)) fields[`${section}.${i}.id`] ??= "required";
      seen.add(entry.id);
    });
  };
  const amounts = (path: string, values: Record<string, string>, places = AMOUNT_DECIMALS) => {
    for (const [name, value] of Object.entries(values)) {
      if (decimals(value) > places) fields[`${path}.${name}`] ??= "tooManyDecimals";
    }
  };
  once("plans", catalog.plans);
  once("paymentSystems", catalog.paymentSystems);
  once("subscriptionOptions", catalog.subscriptionOptions);
  once("cryptoCases", catalog.cryptoCases);
  catalog.plans?.forEach((p, i) => {
    amounts(`plans.${i}`, { minAmount: p.minAmount, maxAmount: p.maxAmount });
    amounts(`plans.${i}`, { dailyYieldPercent: p.dailyYieldPercent }, PERCENT_DECIMALS);
    if (compareAmounts(p.maxAmount, p.minAmount) < 0) fields[`plans.${i}.maxAmount`] ??= "amountBelowMinimum";
  });
  catalog.paymentSystems?.forEach((s, i) => {
    amounts(`paymentSystems.${i}`, { minWithdrawal: s.minWithdrawal, maxWithdrawal: s.maxWithdrawal });
    amounts(`paymentSystems.${i}`, { withdrawalFeePercent: s.withdrawalFeePercent }, PERCENT_DECIMALS);
    if (compareAmounts(s.maxWithdrawal, s.minWithdrawal) < 0) {
      fields[`paymentSystems.${i}.maxWithdrawal`] ??= "amountBelowMinimum";
    }
    if (compareAmounts(s.withdrawalFeePercent, 100) >= 0) {
      fields[`paymentSystems.${i}.withdrawalFeePercent`] ??= "amountAboveMaximum";
    }
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(s.addressPattern);
    } catch {
      fields[`paymentSystems.${i}.addressPattern`] ??= "required";
    }
    if (pattern && !pattern.test(s.address)) fields[`paymentSystems.${i}.address`] ??= "addressFormat";
  });
  catalog.subscriptionOptions?.forEach((o, i) => {
    amounts(`subscriptionOptions.${i}`, { price: o.price });
  });
  const planIds = new Set([...knownPlanIds, ...(catalog.plans ?? []).map((p) => p.id)]);
  catalog.cryptoCases?.forEach((c, i) => {
    c.planIds.forEach((id, j) => {
      if (!planIds.has(id)) fields[`cryptoCases.${i}.planIds.${j}`] ??= "required";
    });
  });
  if (Object.keys(fields).length > 0) throw new AppError("VALIDATION_FAILED", { fields });
}

/** JSON with object keys sorted: PostgreSQL's jsonb keeps its own key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** Writes one section's entries by id (insert or update every column). */
async function upsert(db: Database, table: PgTable, entries: Record<string, unknown>[]): Promise<void> {
  if (entries.length === 0) return;
  const columns = table as unknown as Record<string, { name: string }>;
  const set: Record<string, SQL> = {};
  for (const key of Object.keys(entries[0] ?? {})) {
    if (key !== "id") set[key] = sql.raw(`excluded."${columns[key]?.name ?? key}"`);
  }
  await db
    .insert(table)
    .values(entries as never)
    .onConflictDoUpdate({ target: columns.id as never, set });
}

/** Per id of one section: added, changed or unchanged (stored before and after compared), or not in the file. */
function sectionReport(
  before: { id: string }[] | undefined,
  after: { id: string }[] | undefined,
  given: { id: string }[],
): NonNullable<CatalogApplyReply["plans"]> {
  const was = new Map((before ?? []).map((e) => [e.id, canonical(e)] as const));
  const now = new Map((after ?? []).map((e) => [e.id, canonical(e)] as const));
  const ids = new Set(given.map((e) => e.id));
  const report = {
    added: [] as string[],
    changed: [] as string[],
    unchanged: [] as string[],
    notInFile: [] as string[],
  };
  for (const id of ids) {
    if (!was.has(id)) report.added.push(id);
    else if (was.get(id) === now.get(id)) report.unchanged.push(id);
    else report.changed.push(id);
  }
  report.notInFile = [...was.keys()].filter((id) => !ids.has(id));
  return report;
}

/**
 * Adds and changes catalogue entries by id in one transaction (`kassa catalog apply <file>`). A section
 * left out of the file is not touched; an entry of the catalogue missing from the file is left as it is and
 * named in the reply (`notInFile`): plans and payment systems are referred to by deposits and refills, so
 * one is switched off (`active: false`, `refillEnabled: false`), never deleted.
 */
export async function applyCatalog(db: Database, catalog: Catalog): Promise<CatalogApplyReply> {
  const applied = await db.transaction(async (tx) => {
    const before = await readCatalog(tx);
    checkCatalog(catalog, new Set((before.plans ?? []).map((p) => p.id)));
    // Plans before the cases that name them.
    await upsert(tx, plans, catalog.plans ?? []);
    await upsert(tx, paymentSystems, catalog.paymentSystems ?? []);
    await upsert(tx, subscriptionOptions, catalog.subscriptionOptions ?? []);
    await upsert(tx, cryptoCases, catalog.cryptoCases ?? []);
    const after = await readCatalog(tx);
    const reply: CatalogApplyReply = {};
    for (const section of ["plans", "paymentSystems", "subscriptionOptions", "cryptoCases"] as const) {
      const given = catalog[section];
      if (given) reply[section] = sectionReport(before[section], after[section], given);
    }
    return reply;
  });
  // This process's caches drop the catalogue at once, not when the database's notification comes: a deposit opened
  // right after an apply sees the plans applied.
  keptOf(db)?.feed.changing("catalog");
  return applied;
}
