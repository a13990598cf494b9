/**
 * Alerts (toasts): a queue in an atom, shown one at a time by `<AlertsHost>` with telegram-ui's
 * Snackbar. An alert keeps an i18n key, not a text, so it reads right in the current language.
 */
import type { ErrorCode, SuccessCode } from "@contract";
import type { ParseKeys } from "i18next";
import { atom } from "jotai";
import { type AppStore, appStore } from "./store";

/** Spec §9: alert default duration. */
export const ALERT_DEFAULT_DURATION_MS = 3000;

export type AlertTone = "error" | "success" | "info";

export type AlertText =
  | { ns: "errors"; key: ErrorCode; params?: Record<string, string> }
  | { ns: "success"; key: SuccessCode }
  | { ns: "common"; key: ParseKeys<"common">; params?: Record<string, string> };

export interface Alert {
  id: number;
  tone: AlertTone;
  text: AlertText;
  duration: number;
}

export const alertsAtom = atom<readonly Alert[]>([]);

let lastId = 0;

export function pushAlert(
  input: { tone: AlertTone; text: AlertText; duration?: number },
  store: AppStore = appStore,
): number {
  lastId += 1;
  const next: Alert = {
    id: lastId,
    tone: input.tone,
    text: input.text,
    duration: input.duration ?? ALERT_DEFAULT_DURATION_MS,
  };
  store.set(alertsAtom, (queue) => [...queue, next]);
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
};
