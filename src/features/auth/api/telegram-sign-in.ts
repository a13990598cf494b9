import type { Language, SessionReply } from "@contract";
import { callApi, isApiError } from "@/lib/api-client";

export interface TelegramSignInInput {
  /** The raw init data as the Telegram client passed it. */
  initData: string;
  /** The inviter from the start parameter `ref_<login>`, used only when the account is created. */
  inviter?: string;
  /** The interface language, for a new account when Telegram's language is not offered. */
  language?: Language;
}

/**
 * `POST /auth/telegram/{inviter}` (or `/auth/telegram` without one). An inviter that does not exist
 * would refuse a new account; then the sign-in goes ahead uninvited, as it would have without the link.
 */
export async function telegramSignIn({ initData, inviter, language }: TelegramSignInInput): Promise<SessionReply> {
  const body = language ? { initData, language } : { initData };
  if (!inviter) return callApi("telegramAuth", { body });
  try {
    return await callApi("telegramAuthInvited", { params: { inviter }, body });
  } catch (error) {
    if (isApiError(error) && error.code === "REGISTRATION_FAILED" && error.fields?.inviter) {
      return callApi("telegramAuth", { body });
    }
    throw error;
  }
}
