/**
 * How a verification code reaches its user (docs/decisions.md#d5-codes): through the user's channel (their
 * security setting). Development and tests use the outbox sender; production routes each channel
 * to its provider, and a channel without one fails (502 CODE_SEND_FAILED at the call).
 */
import type { CodeChannel, Language } from "@contract";
import type { CodePurpose } from "../db/schema";

export interface CodeDelivery {
  login: string;
  language: Language;
  channel: CodeChannel;
  telegramId: number | null;
  email: string | null;
  phone: string | null;
  purpose: CodePurpose;
  code: string;
  expiresInSeconds: number;
}

export interface CodeSender {
  /** Resolves once the provider accepted the message; rejects (any error) when it did not. */
  send(delivery: CodeDelivery): Promise<void>;
}

export class CodeSendError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CodeSendError";
  }
}

/** Routes each channel to its provider; a channel without one fails. */
export class ChannelCodeSender implements CodeSender {
  constructor(private readonly providers: Partial<Record<CodeChannel, CodeSender>>) {}

  async send(delivery: CodeDelivery): Promise<void> {
    const provider = this.providers[delivery.channel];
    if (!provider) throw new CodeSendError(`no provider is configured for the ${delivery.channel} channel`);
    await provider.send(delivery);
  }
}

const PURPOSES: Record<Language, Record<CodePurpose, string>> = {
  en: { phone: "phone confirmation", password_reset: "password reset", withdrawal: "withdrawal" },
  ru: { phone: "подтверждение телефона", password_reset: "сброс пароля", withdrawal: "вывод средств" },
  de: { phone: "Telefonbestätigung", password_reset: "Passwort zurücksetzen", withdrawal: "Auszahlung" },
  kk: { phone: "телефонды растау", password_reset: "құпия сөзді қалпына келтіру", withdrawal: "қаражат шығару" },
};

/** The message text in the user's language. */
export function codeMessageText(delivery: CodeDelivery): string {
  const minutes = Math.max(1, Math.round(delivery.expiresInSeconds / 60));
  const purpose = PURPOSES[delivery.language][delivery.purpose];
  const { code } = delivery;
  switch (delivery.language) {
    case "ru":
      return `Kassa: код ${code} (${purpose}). Действует ${minutes} мин. Никому его не сообщайте.`;
    case "de":
      return `Kassa: Code ${code} (${purpose}). Gültig ${minutes} Min. Geben Sie ihn niemandem weiter.`;
    case "kk":
      return `Kassa: код ${code} (${purpose}). ${minutes} мин жарамды. Оны ешкімге айтпаңыз.`;
    default:
      return `Kassa: code ${code} (${purpose}). Valid for ${minutes} min. Never share it with anyone.`;
  }
}
