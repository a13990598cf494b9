/**
 * Server settings, read and written: every known key with its schema, default and visibility is in
 * `setting-defs.ts`. Values live in the `settings` table; a missing row reads as the default, and a
 * write is checked against the schema so the operator cannot store something the app cannot read.
 */

import { type LocalizedText, PUBLIC_SETTING_KEYS, type PublicSettingKey, type TechnicalWorkReply } from "@contract";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Clock } from "../clock";
import { type Awaitable, keptOf } from "../db/change-feed";
import type { Database } from "../db/client";
import { settings } from "../db/schema";
import { AppError } from "../errors";
import { isSettingKey, SETTING_KEYS, SETTINGS, type SettingKey, type SettingValue } from "./setting-defs";

const publicKeys: readonly string[] = PUBLIC_SETTING_KEYS;
const isPublicSettingKey = (key: string): key is PublicSettingKey => publicKeys.includes(key);

/** Reads a setting; a missing or no longer valid row reads as the default. At once (not a promise) when kept. */
export function getSetting<K extends SettingKey>(db: Database, key: K): Awaitable<SettingValue<K>> {
  const kept = keptOf(db);
  // Frozen: every caller shares the kept value.
  if (kept)
    return kept.settings.get(key, async () => deepFreeze(await readSetting(db, key))) as Awaitable<SettingValue<K>>;
  return readSetting(db, key);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** `getSetting` from the table (the app keeps the result until the settings change, db/change-feed.ts). */
async function readSetting<K extends SettingKey>(db: Database, key: K): Promise<SettingValue<K>> {
  const setting = SETTINGS[key];
  const rows = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  const row = rows[0];
  if (!row) return setting.default as SettingValue<K>;
  const parsed = setting.schema.safeParse(row.value);
  return (parsed.success ? parsed.data : setting.default) as SettingValue<K>;
}

/** Writes a setting after checking it against its schema; throws VALIDATION_FAILED otherwise. */
export async function setSetting<K extends SettingKey>(
  db: Database,
  clock: Clock,
  key: K,
  value: unknown,
): Promise<SettingValue<K>> {
  const setting = SETTINGS[key];
  const parsed = setting.schema.safeParse(value);
  if (!parsed.success) {
    const fields = Object.fromEntries(
      parsed.error.issues.map((i) => [[key, ...i.path.map(String)].join("."), "required" as const]),
    );
    throw new AppError("VALIDATION_FAILED", { fields });
  }
  const now = clock.now();
  await db
    .insert(settings)
    .values({ key, value: parsed.data, isPublic: setting.public, updatedAt: now })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: parsed.data, isPublic: setting.public, updatedAt: now },
    });
  keptOf(db)?.feed.changing("settings");
  return parsed.data as SettingValue<K>;
}

/** Inserts the default of every setting that has no row yet (run at every start). */
export async function ensureDefaultSettings(db: Database, clock: Clock): Promise<void> {
  const now = clock.now();
  await db
    .insert(settings)
    .values(
      SETTING_KEYS.map((key) => ({
        key,
        value: SETTINGS[key].default,
        isPublic: SETTINGS[key].public,
        updatedAt: now,
      })),
    )
    .onConflictDoNothing({ target: settings.key });
}

/** `GET /settings/{key}`: public keys only; any other key is "not found", not "forbidden". */
export async function getPublicSetting(db: Database, key: string): Promise<{ key: PublicSettingKey; value: unknown }> {
  if (!isPublicSettingKey(key) || !isSettingKey(key) || !SETTINGS[key].public) throw new AppError("NOT_FOUND");
  return { key, value: await getSetting(db, key) };
}

export type TechnicalWork = z.infer<typeof TechnicalWorkReply>;

export interface MaintenanceChange {
  enabled: boolean;
  /** Expected end (ISO 8601 with offset), or null. */
  until?: string | null | undefined;
  /** The note for users; missing languages get the English (or first given) text. */
  message?: Partial<LocalizedText> | null | undefined;
}

/** Completes a partly translated note so every interface language shows something. */
export function completeLocalizedText(partial: Partial<LocalizedText>): LocalizedText | null {
  const fallback = partial.en ?? partial.ru ?? partial.de ?? partial.kk;
  if (fallback === undefined || fallback.trim() === "") return null;
  return {
    en: partial.en ?? fallback,
    ru: partial.ru ?? fallback,
    de: partial.de ?? fallback,
    kk: partial.kk ?? fallback,
  };
}

/** Switches the maintenance notice on or off (operator command). Turning it off clears the note. */
export async function setMaintenance(db: Database, clock: Clock, change: MaintenanceChange): Promise<TechnicalWork> {
  const value: TechnicalWork = change.enabled
    ? {
        enabled: true,
        message: change.message ? completeLocalizedText(change.message) : null,
        until: change.until ?? null,
      }
    : { enabled: false, message: null, until: null };
  return setSetting(db, clock, "technicalWork", value);
}
