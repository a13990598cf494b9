/**
 * A real SMTP server in the test process (`smtp-server`), with TLS when given a certificate: it
 * receives what Kassa sends, parses each message (`mailparser`) and keeps it. Each message's DATA
 * can be answered as a mail server might: accepted, refused for now (4xx), refused for good (5xx),
 * or not at all (the connection hangs until the client gives up).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type MailAnswer = "accept" | "hang" | { code: number; message: string };

export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  parsed: ParsedMail;
  /** The message as it came over the wire. */
  raw: string;
  /** It came over TLS. */
  secure: boolean;
}

export interface MailServer {
  /** `smtp://127.0.0.1:<port>` (or `smtps://` with TLS), the value for SMTP_URL. */
  url: string;
  /** Messages accepted, oldest first. */
  received: ReceivedMail[];
  /** Every message offered (its DATA sent), accepted or not, oldest first. */
  offered: ReceivedMail[];
  /** Messages offered since the last `answer()`. */
  attempts: number;
  /** How the next messages are answered (per attempt since this call, from 0); null: accept. */
  answer(decide: ((attempt: number) => MailAnswer) | null): void;
  waitForMail(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A throw-away self-signed certificate for 127.0.0.1 and localhost (openssl). */
export function throwAwayCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "kassa-cert-"));
  try {
    const key = path.join(dir, "key.pem");
    const cert = path.join(dir, "cert.pem");
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"],
        ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", cert],
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startMailServer(options: { tls?: { key: string; cert: string } } = {}): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const offered: ReceivedMail[] = [];
  let decide: ((attempt: number) => MailAnswer) | null = null;
  let attempts = 0;
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    secure: options.tls !== undefined,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { disabledCommands: ["STARTTLS"] }),
    authOptional: true,
    logger: false,
    closeTimeout: 200,
    onData(stream, session, callback) {
      const attempt = attempts++;
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw).then(
          (parsed) => {
            const mail = { to: session.envelope.rcptTo.map((r) => r.address), parsed, raw, secure: session.secure };
            offered.push(mail);
            const answer = decide ? decide(attempt) : "accept";
            if (answer === "hang") return;
            if (answer !== "accept") {
              const error = new Error(answer.message) as Error & { responseCode: number };
              error.responseCode = answer.code;
              callback(error);
              return;
            }
            received.push(mail);
            for (const wake of waiters) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  // A client that drops the connection (a refused certificate) is no failure of the server.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `${options.tls ? "smtps" : "smtp"}://127.0.0.1:${port}`,
    received,
    offered,
    get attempts() {
      return attempts;
    },
    answer(next) {
      decide = next;
      attempts = 0;
    },
    waitForMail(predicate = () => true, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such e-mail within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
