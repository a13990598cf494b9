/**
 * Messages a form shows, as i18n keys, and what a failed call becomes (spec §7 failure kinds).
 * Types only from the contract (the login screen must not download zod).
 */
import type { ParseKeys } from "i18next";
import { isApiError } from "@/lib/api-client";
import type { FieldErrorText } from "./field-errors";

export type Message =
  | FieldErrorText
  | { ns: "common"; key: ParseKeys<"common"> }
  /** The server's own words, when its reply carries no code the app knows (spec §7, password reset). */
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

/** The form error of a failed call, with the attempts left after a wrong code. */
export function formErrorOf(error: unknown): FormError {
  const message = messageOfError(error);
  const attemptsLeft = Number(isApiError(error) ? error.params?.attemptsLeft : undefined);
  if (isApiError(error) && error.code === "CODE_MISMATCH" && Number.isInteger(attemptsLeft)) {
    return { message, attemptsLeft };
  }
  if (isApiError(error) && (error.code === "CODE_EXPIRED" || error.code === "CODE_INVALID")) {
    return { message, note: { ns: "auth", key: "code.expiredHint" } };
  }
  return { message };
}
