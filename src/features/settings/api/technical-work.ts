/**
 * Reading the maintenance flag. Unlike other replies it is read tolerantly, on purpose: the flag decides
 * whether the whole app is replaced, so `enabled: true` must win even if the operator's note or the
 * end time is malformed (a strict check would then hide the maintenance page while every other call
 * answers 503). It also keeps the contract's code (zod/mini and the route table, see `lib/contract.ts`) off the first screen, which
 * polls this at start.
 * `tests/unit/settings.test.ts` holds it to the contract's schema for well-formed replies.
 */
import type { LocalizedText, Routes, TechnicalWorkReply } from "@contract";
import { apiRequest } from "@/lib/api-client";

/** The contract's `technicalWork` route; the types make a change of path or method fail to compile. */
const ROUTE: { method: Routes["technicalWork"]["method"]; path: Routes["technicalWork"]["path"] } = {
  method: "GET",
  path: "/settings/technical_work",
};

const LANGUAGE_KEYS = ["en", "ru", "de", "kk"] as const;

function localizedText(value: unknown): LocalizedText | null {
  if (!value || typeof value !== "object") return null;
  const record = value as Record<string, unknown>;
  return LANGUAGE_KEYS.every((key) => typeof record[key] === "string") ? (record as LocalizedText) : null;
}

/** ISO 8601 with a time zone, as the contract says; anything else is dropped. */
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function isoDatetime(value: unknown): string | null {
  return typeof value === "string" && ISO_DATETIME.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
}

export function readTechnicalWork(reply: unknown): TechnicalWorkReply {
  const record = reply && typeof reply === "object" ? (reply as Record<string, unknown>) : {};
  return {
    enabled: record.enabled === true,
    message: localizedText(record.message),
    until: isoDatetime(record.until),
  };
}

export async function fetchTechnicalWork(signal?: AbortSignal): Promise<TechnicalWorkReply> {
  return readTechnicalWork(await apiRequest({ ...ROUTE, signal }));
}
