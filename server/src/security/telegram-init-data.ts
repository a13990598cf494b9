/**
 * Telegram Mini App init data: signing (for the development launch) and validation (for sign-in),
 * as Telegram specifies it: the data-check-string is every field but `hash` as `key=value` lines
 * sorted by key, the secret key is HMAC-SHA256(key "WebAppData", message bot token), and `hash`
 * is the hex HMAC-SHA256 of the data-check-string under that secret key.
 * https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { text } from "@contract";
import { z } from "zod";

/** Names are stored: a control character (NUL included) makes the init data malformed. */
export const TelegramUser = z.object({
  id: z.number().int().positive(),
  first_name: text(),
  last_name: z.optional(text()),
  username: z.optional(text()),
  language_code: z.optional(text()),
  is_premium: z.boolean().optional(),
  allows_write_to_pm: z.boolean().optional(),
  photo_url: z.string().optional(),
});
export type TelegramUser = z.infer<typeof TelegramUser>;

export interface InitDataFields {
  user: TelegramUser;
  authDate: Date;
  queryId?: string;
  startParam?: string;
  chatType?: string;
  chatInstance?: string;
}

interface ValidInitData {
  user: TelegramUser | undefined;
  authDate: Date;
  queryId: string | undefined;
  startParam: string | undefined;
  /** Every field as received (decoded), `hash` included. */
  fields: Record<string, string>;
}

export type InitDataRefusal =
  /** Not a query string of unique keys, or a field (user, auth_date) is malformed. */
  | "malformed"
  | "hash_missing"
  | "hash_mismatch"
  | "expired"
  /** `auth_date` lies in the future beyond the allowed clock skew. */
  | "auth_date_in_future";

export type InitDataResult = { ok: true; data: ValidInitData } | { ok: false; reason: InitDataRefusal };

/** Tolerated difference between Telegram's clock and ours. */
const CLOCK_SKEW_SECONDS = 60;

function secretKey(botToken: string): Buffer {
  return createHmac("sha256", "WebAppData").update(botToken).digest();
}

function dataCheckString(fields: Iterable<[string, string]>): string {
  return [...fields]
    .filter(([key]) => key !== "hash")
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
}

function computeHash(fields: Iterable<[string, string]>, botToken: string): Buffer {
  return createHmac("sha256", secretKey(botToken)).update(dataCheckString(fields)).digest();
}

/** Signs init data with a bot token as Telegram does; returns the raw (URL-encoded) init data. */
export function signInitData(data: InitDataFields, botToken: string): string {
  const params = new URLSearchParams();
  params.set("query_id", data.queryId ?? `AA${randomBytes(12).toString("base64url")}`);
  params.set("user", JSON.stringify(data.user));
  if (data.chatInstance !== undefined) params.set("chat_instance", data.chatInstance);
  if (data.chatType !== undefined) params.set("chat_type", data.chatType);
  if (data.startParam !== undefined) params.set("start_param", data.startParam);
  params.set("auth_date", String(Math.floor(data.authDate.getTime() / 1000)));
  // Clients since Bot API 8.0 also send Telegram's Ed25519 `signature` (for third parties), and the SDK
  // refuses init data without one. Only Telegram can make a real one; this stand-in is covered by the
  // HMAC like every other field, and the server never relies on it.
  params.set("signature", randomBytes(64).toString("base64url"));
  params.set("hash", computeHash(params.entries(), botToken).toString("hex"));
  return params.toString();
}

/**
 * Checks raw init data (the `tgWebAppData` / `initDataRaw` string) against the bot token: the
 * hash (compared in constant time) and the age of `auth_date` (at most `maxAgeSeconds` before
 * `now`; 0 skips the age check).
 */
export function validateInitData(raw: string, botToken: string, maxAgeSeconds: number, now: Date): InitDataResult {
  const params = new URLSearchParams(raw);
  // No prototype: every key is a field of its own (a `__proto__` parameter too, so it is in the data-check
  // string and must be signed like any other), and a repeated key is refused.
  const fields: Record<string, string> = Object.create(null);
  for (const [key, value] of params) {
    if (Object.hasOwn(fields, key)) return { ok: false, reason: "malformed" };
    fields[key] = value;
  }

  const hash = fields.hash;
  if (hash === undefined || hash === "") return { ok: false, reason: "hash_missing" };
  if (!/^[0-9a-f]{64}$/i.test(hash)) return { ok: false, reason: "hash_mismatch" };
  const expected = computeHash(Object.entries(fields), botToken);
  if (!timingSafeEqual(expected, Buffer.from(hash, "hex"))) return { ok: false, reason: "hash_mismatch" };

  const authDateSeconds = Number(fields.auth_date);
  if (!fields.auth_date || !Number.isSafeInteger(authDateSeconds) || authDateSeconds <= 0) {
    return { ok: false, reason: "malformed" };
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (authDateSeconds > nowSeconds + CLOCK_SKEW_SECONDS) return { ok: false, reason: "auth_date_in_future" };
  if (maxAgeSeconds > 0 && nowSeconds - authDateSeconds > maxAgeSeconds) return { ok: false, reason: "expired" };

  let user: TelegramUser | undefined;
  if (fields.user !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(fields.user);
    } catch {
      return { ok: false, reason: "malformed" };
    }
    const parsed = TelegramUser.safeParse(json);
    if (!parsed.success) return { ok: false, reason: "malformed" };
    user = parsed.data;
  }

  return {
    ok: true,
    data: {
      user,
      authDate: new Date(authDateSeconds * 1000),
      queryId: fields.query_id,
      startParam: fields.start_param,
      fields,
    },
  };
}
