/**
 * The interface language the investor chose, on the server too (`users.language`, through `PATCH /user-data`): the
 * server writes the notifications, the bot's messages and the codes' texts in it. Mounted with the signed-in frame,
 * so it is the one place that sends it, whichever switch made the choice (Settings → Language, the header's).
 *
 * Only a choice is sent: the language saved by `setLanguage` and shown now. A language nobody chose (the browser's
 * or Telegram's, detected at the start) is never sent, so an account keeps the language the server gave it. Each
 * difference between the choice and the signed-in user's language is sent once; a send that failed for want of a
 * connection or on the server's side (5xx, 429) is sent again after a pause, at once when the browser is back
 * online. A refusal (another 4xx) is not repeated for that difference. The choice stays applied here meanwhile.
 */
import type { Language } from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { useAtomValue, useSetAtom } from "jotai";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage, isSupportedLanguage, LANGUAGE_STORAGE_KEY } from "@/config/i18n";
import { notificationKeys } from "@/features/notifications/api/notification-queries";
import { profileKeys } from "@/features/profile/api/profile-queries";
import { ApiError, callApi } from "@/lib/api-client";
import { updateUserAtom, userAtom } from "@/lib/session";

/** Pauses before a failed send goes again (the last one repeats); the browser's `online` event sends at once. */
const LANGUAGE_SYNC_RETRY_WAITS_MS = [5_000, 30_000, 120_000] as const;

/** The language the user chose here (what `setLanguage` saved), or null when none was chosen. */
function chosenLanguage(): Language | null {
  try {
    const saved = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isSupportedLanguage(saved) ? saved : null;
  } catch {
    return null;
  }
}

/** Worth sending again: no answer, or the server's own failure; not a refusal of the request. */
function passing(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === "network" || error.kind === "timeout") return true;
  const status = error.status ?? 0;
  return error.kind === "http" && (status >= 500 || status === 429);
}

export function useLanguageSync(): void {
  const { i18n } = useTranslation();
  const user = useAtomValue(userAtom);
  const updateUser = useSetAtom(updateUserAtom);
  const queryClient = useQueryClient();
  const chosen = chosenLanguage();
  const wanted = user && chosen && chosen === currentLanguage(i18n) && chosen !== user.language ? chosen : null;
  const difference = wanted && user ? `${user.id}:${user.language}>${wanted}` : null;
  /** The difference sent (or being sent); cleared by a failure that may pass, so it goes again. */
  const sent = useRef<string | null>(null);
  const failures = useRef(0);
  const [attempt, setAttempt] = useState(0);
  /** The pause before the next try after a failed send, or null when none waits. */
  const [retryIn, setRetryIn] = useState<number | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes only to send again after a failure.
  useEffect(() => {
    if (!wanted || !difference || sent.current === difference) return;
    sent.current = difference;
    callApi("updateUserData", { body: { language: wanted } }).then(
      (reply) => {
        failures.current = 0;
        updateUser({ language: reply.user.language });
        // What the server wrote in the old language is read again in the new one.
        void queryClient.invalidateQueries({ queryKey: profileKeys.all });
        void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
      },
      (error: unknown) => {
        if (!passing(error) || sent.current !== difference) return;
        sent.current = null;
        const waits = LANGUAGE_SYNC_RETRY_WAITS_MS;
        setRetryIn(waits[Math.min(failures.current++, waits.length - 1)] ?? null);
      },
    );
  }, [wanted, difference, attempt, updateUser, queryClient]);

  useEffect(() => {
    if (retryIn === null) return;
    const again = () => {
      setRetryIn(null);
      setAttempt((count) => count + 1);
    };
    const timer = setTimeout(again, retryIn);
    addEventListener("online", again);
    return () => {
      clearTimeout(timer);
      removeEventListener("online", again);
    };
  }, [retryIn]);
}
