/**
 * Alerts (toasts): a queue in an atom, shown one at a time by `<AlertsHost>` with telegram-ui's
 * Snackbar. An alert keeps an i18n key, not a text, so it reads right in the current language.
 */
import type { ErrorCode, SuccessCode } from "@contract";
import type { ParseKeys } from "i18next";
import { atom } from "jotai";
import { type AppStore, appStore } from "./store";

/** Alert default duration (docs/cabinet-rules.md#limits). */
export const ALERT_DEFAULT_DURATION_MS = 3000;

export type AlertTone = "error" | "success" | "info";

export type AlertText =
  | { ns: "errors"; key: ErrorCode; params?: Record<string, string> }
  | { ns: "success"; key: SuccessCode }
  | { ns: "common"; key: ParseKeys<"common">; params?: Record<string, string> }
  | { ns: "recovery"; key: ParseKeys<"recovery">; params?: Record<string, string> }
  | { ns: "withdrawal"; key: ParseKeys<"withdrawal">; params?: Record<string, string> };

export interface Alert {
  id: number;
  tone: AlertTone;
  text: AlertText;
  duration: number;
}

export const alertsAtom = atom<readonly Alert[]>([]);

let lastId = 0;

export function pushAlert(
  input: { tone: AlertTone; text: AlertText; duration?: number; replace?: boolean },
  store: AppStore = appStore,
): number {
  lastId += 1;
  const next: Alert = {
    id: lastId,
    tone: input.tone,
    text: input.text,
    duration: input.duration ?? ALERT_DEFAULT_DURATION_MS,
  };
  // `replace`: what is shown or waiting is out of date; this one shows at once.
  store.set(alertsAtom, (queue) => (input.replace ? [next] : [...queue, next]));
  return next.id;
}

export function dismissAlert(id: number, store: AppStore = appStore): void {
  store.set(alertsAtom, (queue) => queue.filter((a) => a.id !== id));
}

/** Shorthands for the usual cases. */
export const alerts = {
  error: (code: ErrorCode, params?: Record<string, string>, store?: AppStore) =>
    pushAlert(
      { tone: "error", text: params ? { ns: "errors", key: code, params } : { ns: "errors", key: code } },
      store,
    ),
  success: (code: SuccessCode, store?: AppStore) =>
    pushAlert({ tone: "success", text: { ns: "success", key: code } }, store),
  info: (key: ParseKeys<"common">, store?: AppStore) => pushAlert({ tone: "info", text: { ns: "common", key } }, store),
  /** A success told in the password recovery's own words (the `recovery` namespace). */
  recoverySuccess: (key: ParseKeys<"recovery">, options: { replace?: boolean } = {}, store?: AppStore) =>
    pushAlert({ tone: "success", text: { ns: "recovery", key }, replace: options.replace }, store),
};
