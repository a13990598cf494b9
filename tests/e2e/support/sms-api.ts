/**
 * A stand-in for an SMS provider speaking Twilio's public Messages API exactly as Kassa uses it:
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP Basic `sid:token`, a form body with
 * `To`, `From`, `Body`; 201 with the message resource when accepted; errors as Twilio's JSON
 * (`{ code, message, more_info, status }`): 401 (20003) for wrong credentials, 400 (21211) for a
 * number not in E.164. A test can make it answer otherwise (429, 5xx, 400) or hang.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SmsMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
}

export type SmsAnswer = "accept" | "hang" | { status: number; code: number; message: string; retryAfter?: number };

export interface SmsApiStandIn {
  /** The base URL to give Kassa (`SMS_API_URL`). */
  url: string;
  accountSid: string;
  authToken: string;
  /** Messages accepted, oldest first. */
  messages: SmsMessage[];
  /** Requests to the Messages resource since the last `answer()` (accepted or not). */
  attempts: number;
  /** Every request body offered, accepted or not. */
  offered: SmsMessage[];
  answer(decide: ((attempt: number) => SmsAnswer) | null): void;
  close(): Promise<void>;
}

function twilioError(response: ServerResponse, status: number, code: number, message: string, retryAfter?: number) {
  response.writeHead(status, {
    "content-type": "application/json",
    ...(retryAfter !== undefined ? { "retry-after": String(retryAfter) } : {}),
  });
  response.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startSmsApiStandIn(): Promise<SmsApiStandIn> {
  const accountSid = `AC${randomUUID().replaceAll("-", "")}`;
  const authToken = randomUUID().replaceAll("-", "");
  const messages: SmsMessage[] = [];
  const offered: SmsMessage[] = [];
  const hung = new Set<ServerResponse>();
  let decide: ((attempt: number) => SmsAnswer) | null = null;
  let attempts = 0;

  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://stand-in").pathname;
    if (request.method !== "POST" || path !== `/2010-04-01/Accounts/${accountSid}/Messages.json`) {
      return twilioError(response, 404, 20404, "The requested resource was not found");
    }
    const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
    if (request.headers.authorization !== expected) return twilioError(response, 401, 20003, "Authenticate");
    if (!String(request.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) {
      return twilioError(response, 400, 20001, "Unsupported content type");
    }
    const form = await readForm(request);
    const message = {
      sid: `SM${randomUUID().replaceAll("-", "")}`,
      to: form.get("To") ?? "",
      from: form.get("From") ?? "",
      body: form.get("Body") ?? "",
    };
    offered.push(message);
    const attempt = attempts++;
    const answer = decide ? decide(attempt) : "accept";
    if (answer === "hang") {
      hung.add(response);
      return;
    }
    if (answer !== "accept") {
      return twilioError(response, answer.status, answer.code, answer.message, answer.retryAfter);
    }
    if (!/^\+[1-9]\d{6,14}$/.test(message.to)) {
      return twilioError(response, 400, 21211, `The 'To' number ${message.to} is not a valid phone number.`);
    }
    if (!message.body) return twilioError(response, 400, 21602, "Message body is required.");
    messages.push(message);
    response.writeHead(201, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        sid: message.sid,
        account_sid: accountSid,
        to: message.to,
        from: message.from,
        body: message.body,
        status: "queued",
        num_segments: "1",
        direction: "outbound-api",
        api_version: "2010-04-01",
        date_created: new Date().toUTCString(),
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}.json`,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    messages,
    offered,
    get attempts() {
      return attempts;
    },
    answer(next) {
      decide = next;
      attempts = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hung) response.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
