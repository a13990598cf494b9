/**
 * Where the refresh token is kept inside Telegram, how long the client is waited for and how its storages are
 * asked, without the SDK or the session's state: the boot's token store (`token-store.ts`, `boot.ts`) and the
 * launcher written into index.html (`app/launcher/`), which reads the kept token before the app's code has come,
 * both take them from here.
 */
import { readCookie } from "@/lib/cookies";
import { TOKEN_COOKIE } from "@/lib/session-keys";
import { askClient } from "./client-events";

/** Where the framed store keeps its copy when cookies are refused altogether. */
export const TOKEN_STORAGE_KEY = "kassa.token";

/** The key the token has in Telegram's storages. */
export const TELEGRAM_TOKEN_KEY = "kassa_refresh_token";

/** How long a storage call may stay unanswered before the next place is tried (Telegram Web never answers). */
const STORAGE_ANSWER_TIMEOUT_MS = 800;

/**
 * How long the biometric lock's questions wait (is the lock on, is a biometric token kept): asked only of the phones
 * that answer them, and a lock must never open because a busy phone answered late. Normally answered at once.
 */
export const LOCK_ANSWER_TIMEOUT_MS = 8_000;

/**
 * Which clients keep which of Telegram's storages (Bot API 9.0): SecureStorage is the phone's Keychain
 * or Keystore (iOS, Android); DeviceStorage is the client's own store (the phones and the desktop
 * clients). Telegram Web K and A have neither (Web K never answers, Web A refuses), so they are not
 * asked: a question nobody answers would hold the session's restore, and with it the first screen.
 */
const STORAGE_PLATFORMS: Record<"secure" | "device", readonly string[]> = {
  secure: ["ios", "android"],
  device: ["ios", "android", "tdesktop", "macos"],
};

/** The framed store's token: the cookie a frame keeps, else the local-storage copy. */
export function readFramedToken(): string | null {
  const fromCookie = readCookie(TOKEN_COOKIE);
  if (fromCookie) return fromCookie;
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** One of Telegram's key-value storages, as the bridge offers it. Rejects when the client refuses or is silent. */
export interface BridgeKeyValue {
  kind: string;
  get(key: string): Promise<string | null>;
  set(key: string, value: string | null): Promise<void>;
}

/**
 * The client's SecureStorage and DeviceStorage, best first, those its platform keeps and `offered` says its version
 * has (`web_app_secure_storage_get_key`, `web_app_device_storage_get_key`), each call waiting `timeoutMs` at most.
 */
export function telegramStorages(
  platform: string,
  offered: (method: string) => boolean,
  timeoutMs = STORAGE_ANSWER_TIMEOUT_MS,
): BridgeKeyValue[] {
  return (["secure", "device"] as const).flatMap((kind) => {
    const prefix = `${kind}_storage`;
    if (!STORAGE_PLATFORMS[kind].includes(platform) || !offered(`web_app_${prefix}_get_key`)) return [];
    const ask = (method: string, params: Record<string, unknown>) => {
      const reqId = `kassa-${Math.random().toString(36).slice(2)}`;
      return askClient<{ value?: string | null } | undefined>(
        `web_app_${prefix}_${method}`,
        { req_id: reqId, ...params },
        (eventType, eventData) => {
          if (eventData?.req_id !== reqId) return null;
          if (eventType === `${prefix}_failed`) return { value: undefined };
          return eventType === `${prefix}_key_received` || eventType === `${prefix}_key_saved`
            ? { value: eventData as { value?: string | null } }
            : null;
        },
        timeoutMs,
        undefined,
      ).then((answer) => {
        if (!answer) throw new Error(`${prefix}: refused or unanswered`);
        return answer;
      });
    };
    return [
      {
        kind: `telegram-${kind}`,
        get: async (key: string) => (await ask("get_key", { key })).value ?? null,
        set: async (key: string, value: string | null) => {
          await ask("save_key", { key, value });
        },
      },
    ];
  });
}

/** The first of `tiers` that answers, with the value it holds for `key`; no tier when none does. */
export async function firstAnswer(
  tiers: readonly BridgeKeyValue[],
  key: string,
): Promise<{ tier: BridgeKeyValue | null; value: string | null }> {
  for (const tier of tiers) {
    try {
      return { tier, value: await tier.get(key) };
    } catch {
      // Not offered by this client, or no answer: the next tier.
    }
  }
  return { tier: null, value: null };
}
