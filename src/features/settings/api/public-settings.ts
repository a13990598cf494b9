/**
 * Public settings read without the contract's schemas, on purpose: the login screen needs the
 * Telegram sign-in flag and the bot's username, and checking them with the contract would download
 * its code (zod/mini and the route table, 18.1 KB gzip) before the first screen. The shapes are tiny and read tolerantly; the
 * types tie the paths to the contract's route table, and `tests/unit/settings.test.ts` holds the
 * readers to the contract's schemas.
 */
import type { PublicSettingKey, Routes, SettingReply, TelegramAuthAvailableReply } from "@contract";
import { ApiError, apiRequest } from "@/lib/api-client";

const TELEGRAM_AUTH_ROUTE: {
  method: Routes["telegramAuthAvailable"]["method"];
  path: Routes["telegramAuthAvailable"]["path"];
} = { method: "GET", path: "/settings/telegramAuthAvailable" };

const SETTING_ROUTE: { method: Routes["setting"]["method"]; path: Routes["setting"]["path"] } = {
  method: "GET",
  path: "/settings/:key",
};

function malformed(path: string, body: unknown): ApiError {
  return new ApiError({ kind: "parse", status: 200, body, message: `GET ${path} answered an unexpected reply` });
}

/** `{ available: boolean }`; anything else is a parse failure (and sign-in through Telegram is not offered). */
export function readTelegramAuthAvailable(reply: unknown): TelegramAuthAvailableReply {
  const available = (reply as { available?: unknown } | null)?.available;
  if (typeof available !== "boolean") throw malformed(TELEGRAM_AUTH_ROUTE.path, reply);
  return { available };
}

/** `{ key, value }` for the key asked for. */
export function readSettingReply(key: PublicSettingKey, reply: unknown): SettingReply {
  const record = reply && typeof reply === "object" ? (reply as Record<string, unknown>) : null;
  if (!record || record.key !== key || !("value" in record)) throw malformed(`/settings/${key}`, reply);
  return { key, value: record.value };
}

export async function fetchTelegramAuthAvailable(signal?: AbortSignal): Promise<TelegramAuthAvailableReply> {
  return readTelegramAuthAvailable(await apiRequest({ ...TELEGRAM_AUTH_ROUTE, signal }));
}

export async function fetchSetting(key: PublicSettingKey, signal?: AbortSignal): Promise<SettingReply> {
  const path = SETTING_ROUTE.path.replace(":key", encodeURIComponent(key));
  return readSettingReply(key, await apiRequest({ method: SETTING_ROUTE.method, path, signal }));
}
