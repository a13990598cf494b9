/**
 * Public settings (the settings calls, docs/cabinet-rules.md#api-calls), one query factory. Keys start with
 * `settings` and hold everything the fetch reads.
 */
import type { PublicSettingKey, TechnicalWorkReply } from "@contract";
import { type Query, queryOptions } from "@tanstack/react-query";
import { fetchSetting, fetchTelegramAuthAvailable } from "./public-settings";
import { fetchTechnicalWork } from "./technical-work";

/** While the maintenance flag is off, it is checked every 15 s... */
export const TECHNICAL_WORK_POLL_OFF_MS = 15_000;
/** ...and every 5 s while it is on, so the app comes back soon after the work ends. */
export const TECHNICAL_WORK_POLL_ON_MS = 5_000;
/** Settings an operator rarely changes: fresh for 5 minutes. */
const SETTING_STALE_MS = 5 * 60_000;

export function technicalWorkPollInterval(query: Pick<Query<TechnicalWorkReply>, "state">): number {
  return query.state.data?.enabled ? TECHNICAL_WORK_POLL_ON_MS : TECHNICAL_WORK_POLL_OFF_MS;
}

function stringSetting(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

export const settingsQueries = {
  all: () => ["settings"] as const,

  telegramAuthAvailable: () =>
    queryOptions({
      queryKey: [...settingsQueries.all(), "telegramAuthAvailable"] as const,
      queryFn: ({ signal }) => fetchTelegramAuthAvailable(signal),
      staleTime: SETTING_STALE_MS,
    }),

  technicalWork: () =>
    queryOptions({
      queryKey: [...settingsQueries.all(), "technical_work"] as const,
      queryFn: ({ signal }) => fetchTechnicalWork(signal),
      refetchInterval: technicalWorkPollInterval,
      // A failed check must never take the app down; the next poll tries again.
      throwOnError: false,
    }),

  value: (key: PublicSettingKey) =>
    queryOptions({
      queryKey: [...settingsQueries.all(), "value", key] as const,
      queryFn: ({ signal }) => fetchSetting(key, signal),
      staleTime: SETTING_STALE_MS,
    }),

  /**
   * The login of the inviter used when a registration has no referral
   * (docs/decisions.md#d4-identity-and-sessions).
   */
  defaultInviter: () =>
    queryOptions({
      ...settingsQueries.value("defaultInviter"),
      select: (reply) => stringSetting(reply.value),
    }),

  /** The Telegram bot's username, for the chat-bot link `https://t.me/<botUsername>`. */
  botUsername: () =>
    queryOptions({
      ...settingsQueries.value("botUsername"),
      select: (reply) => stringSetting(reply.value)?.replace(/^@/, "") ?? null,
    }),
};

export function botLink(username: string): string {
  return `https://t.me/${encodeURIComponent(username)}`;
}

/** Opens the bot's Mini App (`?startapp`), with a start parameter such as `ref_<login>` when given. */
export function miniAppLink(username: string, startParam?: string): string {
  const base = botLink(username);
  return startParam ? `${base}?startapp=${encodeURIComponent(startParam)}` : `${base}?startapp`;
}
