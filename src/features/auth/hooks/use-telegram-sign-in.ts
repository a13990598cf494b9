import { inviterFromStartParam } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { useSetAtom } from "jotai";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { toSupportedLanguage } from "@/config/i18n";
import { isApiError } from "@/lib/api-client";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { signInAtom } from "@/lib/session";
import { haptics, useBiometricLockState, useTelegram } from "@/tma/hooks";
import { telegramSignIn } from "../api/telegram-sign-in";
import {
  autoSignInAttempted,
  clearTelegramAutoSignInOptOut,
  markAutoSignInAttempted,
  resetAutoSignInAttempt,
  telegramAutoSignInOptedOut,
} from "../model/telegram-auto-sign-in";

type TelegramSignInStatus =
  /** Not inside Telegram, no init data, or Telegram sign-in is off: the password form. */
  | "unavailable"
  /** Inside Telegram, the flag still loading. */
  | "checking"
  /** Signing in (automatically, or the user pressed the button). */
  | "signing-in"
  /** Signed in; the guard takes the user on. */
  | "signed-in"
  /** Offered as a button: after a failure or a deliberate sign-out. */
  | "offered";

export interface TelegramSignIn {
  status: TelegramSignInStatus;
  /** A sign-in the user started with the button is running (the form stays on screen meanwhile). */
  pending: boolean;
  /** Why the last attempt failed. */
  error: FormError | null;
  /**
   * The server refused the launch's init data (too old: a Mini App kept open, or reopened from an old
   * message). Trying again sends the same data, so the way on is to reopen the app from the bot, or the
   * password.
   */
  stale: boolean;
  /**
   * The biometric lock is on and its check did not pass (or the user chose another way): init data may not open
   * the cabinet, so only the password (or a reset by code) signs in.
   */
  locked: boolean;
  /** Signs in through Telegram now (the button). */
  start(): void;
}

/**
 * Telegram sign-in (docs/telegram.md#sign-in-with-telegram): inside Telegram, with `telegramAuthAvailable` on,
 * the app signs in with the raw init data at once, without a form (`POST /auth/telegram[/<inviter>]`, the
 * inviter from the start parameter `ref_<login>`). `available` is undefined while the flag loads.
 */
export function useTelegramSignIn(available: boolean | undefined): TelegramSignIn {
  const bridge = useTelegram();
  const initData = bridge?.rawInitData;
  const startParam = bridge?.startParam;
  const startSession = useSetAtom(signInAtom);
  const { i18n } = useTranslation();

  const mutation = useMutation({
    mutationFn: telegramSignIn,
    onSuccess: (session) => {
      haptics.notify("success");
      clearTelegramAutoSignInOptOut();
      resetAutoSignInAttempt();
      startSession(session);
    },
    onError: () => haptics.notify("error"),
  });
  const { mutate } = mutation;

  // Whether the running attempt came from the button: then the form (and what was typed) stays.
  const [manual, setManual] = useState(false);

  const attempt = useCallback(() => {
    if (!initData) return;
    const language = toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language);
    const inviter = inviterFromStartParam(startParam);
    mutate({ initData, ...(inviter ? { inviter } : {}), ...(language ? { language } : {}) });
  }, [i18n, initData, mutate, startParam]);

  const start = useCallback(() => {
    setManual(true);
    attempt();
  }, [attempt]);

  // With the biometric lock on, init data opens nothing until the check has passed.
  useBiometricLockState();
  const locked = bridge?.biometricLock ? !bridge.biometricLock.allowsTelegramSignIn() : false;
  const possible = bridge !== null && Boolean(initData) && !locked;
  const automatic = possible && available === true && !telegramAutoSignInOptedOut();
  useEffect(() => {
    if (!automatic || autoSignInAttempted()) return;
    markAutoSignInAttempted();
    attempt();
  }, [automatic, attempt]);

  let status: TelegramSignInStatus;
  if (!possible || available === false) status = "unavailable";
  else if (available === undefined) status = "checking";
  else if (mutation.isSuccess) status = "signed-in";
  else if (!manual && (mutation.isPending || (automatic && mutation.isIdle && !autoSignInAttempted())))
    status = "signing-in";
  else status = "offered";

  // One object per failure: the form shows it until the user's next attempt, not on every render.
  const failure = mutation.error;
  const stale = isApiError(failure) && failure.code === "VERIFICATION_FAILED";
  const error = useMemo(() => (failure ? formErrorOf(failure) : null), [failure]);
  return { status, pending: manual && mutation.isPending, error, stale, locked, start };
}
