/**
 * Where the refresh token is kept inside Telegram, best first (README, "The session inside Telegram"):
 *
 * 1. Telegram's SecureStorage (Bot API 9.0): the phone's Keychain/Keystore, offered by the iOS and
 *    Android clients; it survives the webview's cookie and storage being cleared.
 * 2. Telegram's DeviceStorage (Bot API 9.0): the client's own persistent storage, where SecureStorage
 *    is missing (desktop clients).
 * 3. The framed store of `src/lib/session.ts`: a cookie a cross-site frame keeps plus a local-storage
 *    copy (Telegram Web hosts the app in an iframe and answers neither storage call).
 *
 * A tier counts when the client answers its first read; the token is then written there. A client
 * that does not know the call fails it or stays silent (Telegram Web): after a short wait the next
 * tier is tried. This module does not import the SDK: `boot.ts` gives it the two bridge storages.
 */
import type { TokenStore } from "@/lib/session";

/** One of Telegram's key-value storages, as the bridge offers it. Rejects when the client refuses. */
export interface BridgeKeyValue {
  kind: string;
  get(key: string): Promise<string | null>;
  set(key: string, value: string | null): Promise<void>;
}

/** The key the token has in Telegram's storages. */
export const TELEGRAM_TOKEN_KEY = "kassa_refresh_token";

export function telegramTokenStore(tiers: readonly BridgeKeyValue[], fallback: TokenStore): TokenStore {
  // The first tier that answers, found once per page (the first read or write asks).
  let chosen: Promise<{ tier: BridgeKeyValue | null; value: string | null }> | null = null;
  let kind = "telegram";

  const choose = () => {
    chosen ??= (async () => {
      for (const tier of tiers) {
        try {
          const value = await tier.get(TELEGRAM_TOKEN_KEY);
          kind = tier.kind;
          return { tier, value };
        } catch {
          // Not offered by this client, or no answer: the next tier.
        }
      }
      kind = fallback.kind();
      return { tier: null, value: null };
    })();
    return chosen;
  };

  return {
    kind: () => kind,
    async read() {
      const { tier, value } = await choose();
      if (!tier) return fallback.read();
      if (value) return value;
      // A token kept before this client offered its storage (an update) is moved over once.
      const older = await fallback.read().catch(() => null);
      if (older) {
        await tier.set(TELEGRAM_TOKEN_KEY, older).catch(() => undefined);
        await fallback.write(null).catch(() => undefined);
      }
      return older;
    },
    async write(token) {
      const { tier } = await choose();
      if (!tier) return fallback.write(token);
      try {
        await tier.set(TELEGRAM_TOKEN_KEY, token);
      } catch {
        // The client refused now: keep the token where a frame keeps it rather than lose it.
        if (token) return fallback.write(token);
      }
      if (!token) await fallback.write(null).catch(() => undefined);
    },
  };
}
