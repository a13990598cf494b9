/**
 * Messages a form shows, as i18n keys, and what a failed call becomes (the failure kinds,
 * docs/cabinet-rules.md#api-calls). Types only from the contract (the login screen must not download zod).
 */
import type { ParseKeys } from "i18next";
import { isApiError } from "../api-client";
import type { FieldErrorText } from "./field-errors";

export type Message =
  | FieldErrorText
  | { ns: "common"; key: ParseKeys<"common"> }
  | { ns: "codes"; key: ParseKeys<"codes"> }
  /**
   * The server's own words, when its reply carries no code the app knows (password reset,
   * docs/cabinet-rules.md#api-calls).
   */
  | { text: string };

/** The form-level error: the message, and a note under it (attempts left, what to do next). */
export interface FormError {
  message: Message;
  note?: Message;
  /** After a wrong code: how many tries the code has left. */
  attemptsLeft?: number;
}

function serverMessage(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | null | undefined)?.message;
  return typeof message === "string" && message.trim() !== "" ? message : undefined;
}

/**
 * What a failed call says to the user: no connection, no answer in time, an unreadable reply, or the
 * text of the reply's error code in the current language (else the server's `message`).
 */
export function messageOfError(error: unknown): Message {
  if (!isApiError(error)) return { ns: "errors", key: "INTERNAL" };
  switch (error.kind) {
    case "network":
      return { ns: "common", key: "apiError.network" };
    case "timeout":
      return { ns: "common", key: "apiError.timeout" };
    case "parse":
      return { ns: "common", key: "apiError.parse" };
    case "http": {
      if (error.code)
        return error.params
          ? { ns: "errors", key: error.code, params: error.params }
          : { ns: "errors", key: error.code };
      const text = serverMessage(error.body);
      return text ? { text } : { ns: "errors", key: "INTERNAL" };
    }
  }
}

/** A translation function with the message's namespace (and `auth`, for the fallback) loaded. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The text of a message — the one mapper from a message to words, for the form kit's `MessageText`
 * and for `useApiErrorText`. A validation code this version does not know (a newer server) still says
 * what to do; an error text's missing parameter is left empty.
 */
export function textOfMessage(t: Translate, message: Message): string {
  if ("text" in message) return message.text;
  if (message.ns === "validation")
    return t(message.key, { ns: "validation", defaultValue: t("fieldsWithErrors", { ns: "auth" }), ...message.params });
  if (message.ns === "errors") return t(message.key, { ns: "errors", error: "", ...message.params });
  if (message.ns === "money") return t(message.key, { ns: "money", ...message.params });
  return t(message.key, { ns: message.ns });
}

/** The namespaces a message's text needs. */
export function namespacesOf(
  message: Message,
): ("validation" | "auth" | "registration" | "errors" | "common" | "codes" | "money" | "settings")[] {
  return "text" in message ? [] : message.ns === "validation" ? ["validation", "auth"] : [message.ns];
}

/** The form error of a failed call, with the attempts left after a wrong code. */
export function formErrorOf(error: unknown): FormError {
  const message = messageOfError(error);
  const attemptsLeft = Number(isApiError(error) ? error.params?.attemptsLeft : undefined);
  if (isApiError(error) && error.code === "CODE_MISMATCH" && Number.isInteger(attemptsLeft)) {
    return { message, attemptsLeft };
  }
  if (isApiError(error) && (error.code === "CODE_EXPIRED" || error.code === "CODE_INVALID")) {
    return { message, note: { ns: "codes", key: "expiredHint" } };
  }
  return { message };
}
