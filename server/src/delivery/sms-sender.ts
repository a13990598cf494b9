/**
 * Codes and account notices as SMS through a provider speaking Twilio's public Messages API
 * (docs/delivery.md): `POST {SMS_API_URL}/2010-04-01/Accounts/{sid}/Messages.json`, a form body
 * `To`, `From`, `Body`, HTTP Basic `sid:token`; 201 with the message's JSON when accepted, else a
 * JSON error `{ code, message, status }`. Plain fetch, not Twilio's SDK (docs/delivery.md says why).
 * Numbers go out in E.164. A 429 or 5xx (or no answer) is worth another try; any other refusal (an
 * invalid or unsubscribed number) hands the code to the next channel.
 */
import type { Language } from "@contract";
import { botText } from "../texts/bot";
import { type ChannelNotice, type CodeDelivery, CodeSendError, type CodeSender } from "./code-sender";

export interface SmsSenderOptions {
  /** `https://api.twilio.com`, or a stand-in speaking the same API. */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  /** A number in E.164 or an alphanumeric sender name. */
  from: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** E.164: `+`, a country code that does not start with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;

/** The phone as E.164 (spaces, dashes and brackets dropped), or null when it cannot be one. */
function toE164(phone: string): string | null {
  const compact = phone.replace(/[\s\-().]/g, "");
  return E164.test(compact) ? compact : null;
}

/** A code's SMS in `language`: short enough for one segment (GSM-7 160 or UCS-2 70 characters). */
export function codeSmsText(delivery: Pick<CodeDelivery, "language" | "purpose" | "code" | "expiresInSeconds">) {
  const language: Language = delivery.language;
  const minutes = String(Math.max(1, Math.round(delivery.expiresInSeconds / 60)));
  const purpose = botText(language, `sms.purpose.${delivery.purpose}`);
  return botText(language, "sms.code", { code: delivery.code, purpose, minutes });
}

export class SmsCodeSender implements CodeSender {
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: SmsSenderOptions) {
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  send(delivery: CodeDelivery): Promise<void> {
    return this.message(delivery.phone, codeSmsText(delivery));
  }

  tell(notice: ChannelNotice): Promise<void> {
    return this.message(notice.phone, notice.text);
  }

  private async message(phone: string | null, body: string): Promise<void> {
    if (phone === null) throw new CodeSendError("the account has no phone number");
    const to = toE164(phone);
    if (!to) throw new CodeSendError("the phone number is not in E.164");
    const { apiUrl, accountSid, authToken, from } = this.options;
    let response: Response;
    try {
      response = await this.fetch(`${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: new URLSearchParams({ To: to, From: from, Body: body }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new CodeSendError("the SMS provider did not answer", { cause: error, transient: true });
    }
    if (response.ok) {
      await response.body?.cancel();
      return;
    }
    const error = (await response.json().catch(() => null)) as { code?: number; message?: string } | null;
    const retryAfter = Number(response.headers.get("retry-after"));
    // The provider's reason (error code and message) says why; the message text is never in it.
    throw new CodeSendError(
      `the SMS provider refused the message (${response.status}${error?.code ? ` ${error.code}` : ""}: ${error?.message ?? "no body"})`,
      {
        transient: response.status === 429 || response.status >= 500,
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      },
    );
  }
}
