/**
 * The production senders (docs/delivery.md): the bot for Telegram, SMTP for e-mail (`SMTP_URL`,
 * `MAIL_FROM`), the SMS provider for SMS (`SMS_*`); a channel without its settings has no provider
 * and hands its codes to the next channel. Shared by the server and the operator CLI (whose
 * withdrawal moves tell the investor too).
 */
import type { Env } from "../env";
import { ChannelCodeSender } from "./code-sender";
import { EmailCodeSender } from "./email-sender";
import { SmsCodeSender } from "./sms-sender";
import { TelegramCodeSender } from "./telegram-code-sender";

export function productionCodeSender(env: Env): ChannelCodeSender {
  return new ChannelCodeSender({
    telegram: new TelegramCodeSender({
      botToken: env.TELEGRAM_BOT_TOKEN,
      apiBase: env.TELEGRAM_API_ROOT,
      environment: env.TELEGRAM_ENV,
    }),
    ...(env.SMTP_URL && env.MAIL_FROM
      ? { email: new EmailCodeSender({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM }) }
      : {}),
    ...(env.SMS_ACCOUNT_SID && env.SMS_AUTH_TOKEN && env.SMS_FROM
      ? {
          sms: new SmsCodeSender({
            apiUrl: env.SMS_API_URL,
            accountSid: env.SMS_ACCOUNT_SID,
            authToken: env.SMS_AUTH_TOKEN,
            from: env.SMS_FROM,
          }),
        }
      : {}),
  });
}
