/**
 * A real SMTP server in the test's process (smtp-server), offering STARTTLS with the given certificate
 * and taking AUTH PLAIN/LOGIN for one user; every message is parsed (mailparser) and kept.
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  /** The envelope's sender (MAIL FROM). */
  from: string;
  /** Whether the session had switched to TLS before the message. */
  secure: boolean;
  parsed: ParsedMail;
}

export interface MailServer {
  /** `smtp://user:pass@127.0.0.1:<port>`: what SMTP_URL is set to. */
  url: string;
  messages: ReceivedMail[];
  /** The first message to `address` that `predicate` accepts, waited for (at most `timeoutMs`). */
  waitFor(address: string, predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startMailServer(tls: { cert: string; key: string }): Promise<MailServer> {
  const user = "kassa";
  const pass = "smtp-secret-0123456789";
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    cert: tls.cert,
    key: tls.key,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) callback(null, { user });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            secure: session.secure,
            parsed,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${user}:${pass}@127.0.0.1:${port}`,
    messages,
    async waitFor(address, predicate = () => true, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((m) => m.to.includes(address.toLowerCase()) && predicate(m));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no e-mail to ${address} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
