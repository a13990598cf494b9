/**
 * The invitation an investor sends from the Mini App to a chat of their choice (Bot API 8.0): the bot stores a
 * message for the investor's Telegram account (`savePreparedInlineMessage`) with the referral button, and the app
 * hands its id to Telegram (`web_app_send_prepared_message`), which asks which chat to send it to. The message is
 * in the investor's language; its button opens the Mini App with `startapp=ref_<login>`.
 */
import { type PartnerInviteReply, telegramReferralLink } from "@contract";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { users } from "../db/schema";
import { AppError } from "../errors";
import { botText } from "../texts/bot";
import { getSetting } from "./settings";
import { userLanguage } from "./users";

/** The invitation as the bot stores it: a title for the chat picker, the text and its one button. */
export interface Invitation {
  title: string;
  text: string;
  button: { text: string; url: string };
}

/** What the service needs of the bot: storing a prepared message for a Telegram user; resolves with its id. */
export interface InvitationPreparer {
  prepareInvitation(telegramId: number, invitation: Invitation): Promise<string>;
}

export async function preparePartnerInvite(
  ctx: Pick<ServiceContext, "db" | "log">,
  bot: InvitationPreparer | null,
  userId: string,
): Promise<PartnerInviteReply> {
  const [user] = await ctx.db
    .select({ login: users.login, telegramId: users.telegramId, language: users.language })
    .from(users)
    .where(eq(users.id, userId));
  // Without a bot, or for an account that has no Telegram chat, there is nothing to prepare: the app shares the link.
  if (!bot || !user || user.telegramId === null) throw new AppError("NOT_FOUND");
  const language = userLanguage(user);
  const invitation: Invitation = {
    title: botText(language, "invite.prepared.title"),
    text: botText(language, "invite.prepared.text"),
    button: {
      text: botText(language, "invite.prepared.button"),
      url: telegramReferralLink(await getSetting(ctx.db, "botUsername"), user.login),
    },
  };
  try {
    return { preparedMessageId: await bot.prepareInvitation(user.telegramId, invitation) };
  } catch (error) {
    ctx.log.warn({ err: error }, "the Bot API did not prepare the invitation");
    throw new AppError("BUSY");
  }
}
