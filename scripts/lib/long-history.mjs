// An investor with a long history, made through a running server's own API as an investor and an operator
// would make it: registered (the phone code from the development outbox), then `operations` USDT refills asked
// for and confirmed by the operator (`/api/operator/*`), spread over `days` days by moving the development
// clock a day forward between them (today and the days after it; the clock is reset at the end). Each confirmed refill is one operation and
// one notification, so the operations history and the notification inbox get as many rows. Refill i (from 0,
// oldest first) is of `10 + i` USDT: a row's amount says which it is. Needs a development server
// (NODE_ENV=development: the outbox and the clock) and its operator token.

import { Agent, request } from "node:http";

const PAYMENT_SYSTEM = "usdt-trc20";
/** Refills asked for before they are confirmed; the server lets an investor have 20 waiting. */
const BATCH = 10;

/** The amount of refill `i` (from 0, oldest first). */
export const longHistoryAmount = (i) => String(10 + i);

/**
 * One call, on the seeding's kept connection (`agent`, one at a time): a new connection per call cost the client and
 * the server a connection's set-up and teardown 2,000 times a seeding. Seeding on a starved machine once left the
 * kept connection idle past the server's 5 s, and the server closed it just as the next call went out on it: a call
 * refused that way on a reused connection (ECONNRESET, the server read none of it) goes again on a new one, once.
 */
function call(agent, base, path, { token, body, method = body === undefined ? "GET" : "POST" } = {}, retried = false) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/api${path}`,
      {
        method,
        agent,
        headers: {
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          if (status < 200 || status > 299) reject(new Error(`${method} ${path} answered ${status}: ${text}`));
          else resolve(json);
        });
        res.on("error", reject);
      },
    );
    req.on("error", (error) => {
      if (req.reusedSocket && !retried && error.code === "ECONNRESET")
        resolve(call(agent, base, path, { token, body, method }, true));
      else reject(error);
    });
    req.end(payload);
  });
}

async function phoneCode(agent, base, login) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const items = await call(agent, base, `/dev/outbox?login=${encodeURIComponent(login)}&purpose=phone`);
    const code = items[0]?.code;
    if (code && /^\d{6}$/.test(code)) return code;
    if (Date.now() > deadline) throw new Error(`no phone code for ${login} in the outbox`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Registers an investor and gives it `operations` confirmed refills over `days` days (today and the ones after).
 * Returns its session as the e2e helpers keep one: `{ login, password, token, user }`.
 */
export async function seedLongHistory({ base, operatorToken, operations = 1000, days = 4, language = "en" }) {
  const login = `long${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const password = "Ledger2026go";
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return await seed(agent, { base, operatorToken, operations, days, language, login, password });
  } finally {
    agent.destroy();
  }
}

async function seed(agent, { base, operatorToken, operations, days, language, login, password }) {
  const registered = await call(agent, base, "/auth/register/demo", {
    body: {
      login,
      fullName: "Mira Ledger",
      email: `${login}@example.com`,
      phone: `+7${String(Date.now()).slice(-9)}${Math.floor(Math.random() * 10)}`,
      password,
      passwordRepeat: password,
      acceptTerms: true,
      language,
    },
  });
  const token = registered.refreshToken;
  const confirmed = await call(agent, base, "/auth/phone/confirm", {
    token,
    body: { code: await phoneCode(agent, base, login) },
  });

  const operator = { token: operatorToken };
  // The development clock only moves forward: the first day is today, the next ones the days after it (so the
  // newest rows are dated ahead of today). The reset at the end brings the server back to the real time.
  let made = 0;
  try {
    for (let day = 0; day < days; day++) {
      if (day > 0) await call(agent, base, "/operator/clock", { ...operator, body: { advanceDays: 1 } });
      const until = Math.round((operations * (day + 1)) / days);
      while (made < until) {
        const batch = Array.from({ length: Math.min(BATCH, until - made) }, (_, k) => made + k);
        // One after another: the operations' order (by the time of confirmation) is the amounts'.
        const ids = [];
        for (const n of batch) {
          const refill = await call(agent, base, "/funds/refills", {
            token,
            body: { paymentSystemId: PAYMENT_SYSTEM, amount: longHistoryAmount(n) },
          });
          ids.push(refill.id);
        }
        for (const id of ids) await call(agent, base, `/operator/refills/${id}/confirm`, { ...operator, body: {} });
        made += batch.length;
      }
    }
  } finally {
    await call(agent, base, "/operator/clock", { ...operator, body: { reset: true } });
  }
  return { login, password, token, user: confirmed.user };
}
