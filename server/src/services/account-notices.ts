/**
 * Account notices through the investor's code channel (e-mail, SMS or the chat), in their language:
 * the password changed, a withdrawal changed status (the wallet change has its own text with the
 * addresses, services/wallets.ts). The event is stored already when the notice goes out: a notice
 * that could not be sent is logged, never an error of the call.
 */
import type { NotificationKind } from "@contract";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { users } from "../db/schema";
import type { CodeSender } from "../delivery/code-sender";
import { botText } from "../texts/bot";
import { renderNotification } from "./notifications";
import { type UserRow, userLanguage } from "./users";

/** The sender, and a logger for what could not be sent (the CLI's is stderr). */
export interface NoticeDeps {
  codeSender: CodeSender;
  log: { warn(details: object, message: string): void };
}

/** Sends `title` and `text` to the user through their code channel; failures are logged. */
async function tellAccount(
  deps: NoticeDeps,
  user: UserRow,
  notice: { title: string; text: string },
  what: string,
): Promise<void> {
  const tell = deps.codeSender.tell?.bind(deps.codeSender);
  if (!tell) return;
  const { login, codeChannel: channel, telegramId, email, phone } = user;
  await tell({ login, channel, telegramId, email, phone, language: userLanguage(user), ...notice }).catch(
    (error: unknown) => deps.log.warn({ err: error, login, channel }, `${what} notice not sent`),
  );
}

/**
 * A notification (`notify`) told through the code channel as well, unless the chat hears of it
 * already: an account linked to Telegram with chat notifications on whose channel is the chat gets
 * it once, through the chat outbox.
 */
export async function tellNotification(
  deps: NoticeDeps & Pick<ServiceContext, "db">,
  userId: string,
  kind: NotificationKind,
  params: Record<string, string>,
): Promise<void> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) return;
  if (user.codeChannel === "telegram" && user.telegramId !== null && user.chatNotifications) return;
  const language = userLanguage(user);
  const { title, body } = renderNotification(kind, params, language);
  await tellAccount(deps, user, { title, text: body }, kind);
}

/** After a password change: tells the owner when and how to react if it was not them. */
export async function tellPasswordChanged(deps: NoticeDeps, user: UserRow, at: Date): Promise<void> {
  const language = userLanguage(user);
  const [date = "", time = ""] = at.toISOString().slice(0, 16).split("T");
  const title = botText(language, "notices.passwordChanged.title");
  const body = botText(language, "notices.passwordChanged.body", { date, time });
  await tellAccount(deps, user, { title, text: body }, "password change");
}
