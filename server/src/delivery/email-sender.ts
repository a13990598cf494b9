/**
 * Codes and account notices as e-mail through an SMTP server (nodemailer): `SMTP_URL` names the
 * server (`smtps://` for TLS from the first byte, `smtp://` upgrades with STARTTLS when the server
 * offers it), `MAIL_FROM` the sender. Each message is plain text plus a simple HTML part in the
 * investor's language, with its own Date and Message-ID. A temporary refusal (4xx) or no answer is
 * worth another try (ChannelCodeSender retries within the code's patience); a permanent one (5xx) is
 * not, and hands the code to the next channel. Nodemailer's own logger stays off, so a code never
 * reaches the log through it; our errors carry the server's reply, which never holds the message.
 */
import { randomUUID } from "node:crypto";
import { FALLBACK_LANGUAGE, type Language } from "@contract";
import nodemailer, { type Transporter } from "nodemailer";
import { botText } from "../texts/bot";
import { type ChannelNotice, type CodeDelivery, CodeSendError, type CodeSender, codeMessageText } from "./code-sender";

export interface EmailSenderOptions {
  /** `smtp://user:pass@host:587` or `smtps://user:pass@host:465`. */
  smtpUrl: string;
  /** `Kassa <no-reply@example.com>`. */
  from: string;
  /** How long one attempt may wait for the server to connect, greet or answer (ms). */
  timeoutMs?: number;
  /** Extra TLS options (tests trust their throw-away certificate). */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
}

/** One e-mail as it leaves: subject, plain text and its HTML twin. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
  /** `List-Unsubscribe` target for a mailing (news, one-click: RFC 8058); none for a code or an account notice. */
  unsubscribe?: string;
  /** A key the same for every attempt at one message (the notice outbox's row): its Message-ID. */
  key?: string;
}

/** Nodemailer's error codes that mean "nobody answered (in time)": worth another try. */
const NO_ANSWER = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS"]);

export class EmailCodeSender implements CodeSender {
  private readonly transport: Transporter;
  private readonly domain: string;

  constructor(private readonly options: EmailSenderOptions) {
    const timeout = options.timeoutMs ?? 10_000;
    this.transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      // Never nodemailer's logger: with `debug` it would write the message, code included.
      logger: false,
      debug: false,
      ...(options.tls ? { tls: options.tls } : {}),
    });
    this.domain = /@([^>\s]+)>?\s*$/.exec(options.from)?.[1] ?? "localhost";
  }

  send(delivery: CodeDelivery): Promise<void> {
    if (!delivery.email) return Promise.reject(new CodeSendError("the account has no e-mail"));
    return this.deliver(delivery.email, codeEmail(delivery));
  }

  tell(notice: ChannelNotice): Promise<void> {
    if (!notice.email) return Promise.reject(new CodeSendError("the account has no e-mail"));
    return this.deliver(notice.email, noticeEmail(notice));
  }

  /** Sends one message; rejects with a CodeSendError that says whether another try may help. */
  async deliver(to: string, content: EmailContent): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.options.from,
        to,
        subject: content.subject,
        text: content.text,
        html: content.html,
        date: new Date(),
        messageId: `<${content.key ?? randomUUID()}@${this.domain}>`,
        // RFC 3834: an automatic message; mail servers send no out-of-office replies to it. RFC 8058: a POST
        // to the List-Unsubscribe link unsubscribes with one click.
        headers: {
          "Auto-Submitted": "auto-generated",
          ...(content.unsubscribe ? { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
        },
        ...(content.unsubscribe ? { list: { unsubscribe: content.unsubscribe } } : {}),
      });
    } catch (error) {
      throw smtpFailure(error);
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** What an SMTP failure means for the code: a 4xx or no answer may pass; a 5xx will not. */
function smtpFailure(error: unknown): CodeSendError {
  const e = error as {
    responseCode?: number;
    code?: string;
    originalCode?: string;
    response?: string;
    message?: string;
  };
  const status = typeof e.responseCode === "number" ? e.responseCode : undefined;
  // A certificate the server's name does not match, or nobody vouches for, stays wrong on a retry.
  const badCertificate = /CERT|SIGNED|ALTNAME|UNABLE_TO_VERIFY/.test(e.originalCode ?? "");
  const transient =
    status !== undefined ? status >= 400 && status < 500 : NO_ANSWER.has(e.code ?? "") && !badCertificate;
  const reason = status !== undefined ? `${status}: ${e.response ?? ""}` : `${e.code ?? "error"}: ${e.message ?? ""}`;
  return new CodeSendError(`the SMTP server refused the message (${reason.trim()})`, { cause: error, transient });
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The footer of every e-mail: why it came. */
function footer(language: Language): string {
  return botText(language, "mail.footer");
}

/** A simple HTML page around paragraphs (already escaped), readable in any mail client. */
function htmlPage(language: Language, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${p.replace(/\n/g, "<br>")}</p>`).join("");
  return htmlDocument(
    language,
    `${body}<p style="margin:24px 0 0;font-size:13px;color:#6d6d72">${escapeHtml(footer(language))}</p>`,
  );
}

/** The HTML document around a body (already safe). */
function htmlDocument(language: Language, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"></head><body style="font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1c1c1e">${body}</body></html>`;
}

/** A code's e-mail: the chat's text (without its markup), the code set large in the HTML part. */
function codeEmail(delivery: CodeDelivery): EmailContent {
  const { language } = delivery;
  const purpose = botText(language, `code.purpose.${delivery.purpose}`);
  const message = codeMessageText(delivery);
  const plain = message.replace(/<\/?code>/g, "");
  // The catalogue's text escaped; its `<code>` (digits only) becomes the large code.
  const html = escapeHtml(message).replace(
    /&lt;code&gt;(\d+)&lt;\/code&gt;/,
    `<strong style="font-size:24px;letter-spacing:4px">$1</strong>`,
  );
  return {
    subject: botText(language, "mail.codeSubject", { purpose }),
    text: `${plain}\n\n${footer(language)}`,
    html: htmlPage(language, [html]),
  };
}

/**
 * A notice's e-mail: its title as the subject, its text as the body (a mailing's own HTML when it has one, with
 * its own footer).
 */
function noticeEmail(notice: ChannelNotice): EmailContent {
  const language = notice.language ?? FALLBACK_LANGUAGE;
  const subject = notice.title ?? botText(language, "name");
  return {
    subject,
    ...(notice.html !== undefined
      ? { text: notice.text, html: htmlDocument(language, notice.html) }
      : { text: `${notice.text}\n\n${footer(language)}`, html: htmlPage(language, [escapeHtml(notice.text)]) }),
    ...(notice.key !== undefined ? { key: notice.key } : {}),
    ...(notice.unsubscribe !== undefined ? { unsubscribe: notice.unsubscribe } : {}),
  };
}
