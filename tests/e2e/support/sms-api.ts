/**
 * A stand-in for an SMS provider: Twilio's Messages API as its public reference describes it —
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, a form body (`To`, `From`, `Body`), HTTP Basic
 * `AccountSid:AuthToken` — answering 201 with the message resource, 401 (code 20003) for wrong
 * credentials and 400 (21604, 21211) for a missing or malformed `To`. Over https with the given
 * certificate, as the real API is. Every accepted message is kept.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";

export interface SentSms {
  to: string;
  from: string;
  body: string;
  sid: string;
}

export interface SmsApiStandIn {
  /** The API base to give Kassa (`SMS_API_URL`). */
  url: string;
  accountSid: string;
  authToken: string;
  from: string;
  messages: SentSms[];
  waitFor(to: string, predicate?: (sms: SentSms) => boolean, timeoutMs?: number): Promise<SentSms>;
  close(): Promise<void>;
}

function twilioError(response: ServerResponse, status: number, code: number, message: string) {
  response
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
}

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startSmsApiStandIn(tls: { cert: string; key: string }): Promise<SmsApiStandIn> {
  const accountSid = `AC${randomBytes(16).toString("hex")}`;
  const authToken = randomBytes(16).toString("hex");
  const from = "+15005550006";
  const messages: SentSms[] = [];
  const server = createServer({ cert: tls.cert, key: tls.key }, (request, response) => {
    void (async () => {
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(request.url ?? "");
      if (request.method !== "POST" || !match)
        return twilioError(response, 404, 20404, "The requested resource was not found");
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
      if (match[1] !== accountSid || request.headers.authorization !== expected)
        return twilioError(response, 401, 20003, "Authenticate");
      const form = await formBody(request);
      const to = form.get("To") ?? "";
      const body = form.get("Body") ?? "";
      if (!to) return twilioError(response, 400, 21604, "A 'To' phone number is required.");
      if (!/^\+[1-9]\d{6,14}$/.test(to))
        return twilioError(response, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      if (!body) return twilioError(response, 400, 21602, "Message body is required.");
      const sid = `SM${randomBytes(16).toString("hex")}`;
      messages.push({ to, from: form.get("From") ?? "", body, sid });
      const now = new Date().toUTCString().replace("GMT", "+0000");
      response.writeHead(201, { "content-type": "application/json" }).end(
        JSON.stringify({
          account_sid: accountSid,
          api_version: "2010-04-01",
          body,
          date_created: now,
          date_sent: null,
          date_updated: now,
          direction: "outbound-api",
          error_code: null,
          error_message: null,
          from: form.get("From"),
          messaging_service_sid: form.get("MessagingServiceSid"),
          num_media: "0",
          num_segments: "1",
          price: null,
          price_unit: "USD",
          sid,
          status: "queued",
          subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
          to,
          uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    accountSid,
    authToken,
    from,
    messages,
    async waitFor(to, predicate = () => true, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((m) => m.to === to && predicate(m));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no SMS to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
