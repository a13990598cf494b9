/**
 * The bot's `/start link_<token>` (docs/delivery.md#linking-telegram): the one-time link Settings →
 * Security made for a password account. The token is redeemed for the Telegram account that sent
 * the command, and the chat is told the outcome in its language (the account's once linked).
 */
import type { Language } from "@contract";
import type { Context } from "grammy";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { LINK_PAYLOAD_PREFIX, redeemTelegramLink } from "../services/telegram-link";
import { botText } from "../texts/bot";

/** Whether a `/start` payload is a link to an account. */
export function isLinkStart(payload: string): boolean {
  return payload.trim().startsWith(LINK_PAYLOAD_PREFIX);
}

/** Redeems the link for the sender and answers; `language` is the chat's, until the account's is known. */
export async function answerLinkStart(
  ctx: Context,
  deps: { db: Database; clock: Clock },
  payload: string,
  language: Language,
): Promise<void> {
  if (!ctx.from) return;
  const outcome = await redeemTelegramLink(deps, payload.trim().slice(LINK_PAYLOAD_PREFIX.length), ctx.from.id);
  const say = "language" in outcome ? outcome.language : language;
  const login = "login" in outcome ? outcome.login : "";
  await ctx.reply(botText(say, `link.${outcome.kind}`, { login }));
}
