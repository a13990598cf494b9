// Kassa started for a benchmark as `npm start` runs it (its Node options and script, without npm's own process
// in the tree), on a free port with an in-memory database and the demo data.
import { spawn } from "node:child_process";
import { freePort } from "./free-port.mjs";
import { startArguments } from "./start-command.mjs";

export { freePort };

/**
 * The servers started here and still running. Each is a process of its own, so a benchmark that throws or is
 * interrupted would leave it behind: they are ended when the benchmark's process exits, however it exits.
 */
const running = new Set();
const endAll = () => {
  for (const child of running) child.kill("SIGTERM");
};
process.once("exit", endAll);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
  process.once(signal, () => {
    endAll();
    process.kill(process.pid, signal);
  });

async function waitFor(url, child, ms = 180_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

/** Kassa on a free port (its output shown unless `quiet`, `env` over the defaults), with its `pid`; `stop()` ends it. */
export async function startKassa({ quiet = false, env = {} } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, startArguments("."), {
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: "memory",
      SEED_DEMO: "true",
      LOG_LEVEL: "warn",
      TELEGRAM_BOT: "off",
      ...env,
    },
    stdio: quiet ? "ignore" : ["ignore", "inherit", "inherit"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const base = `http://127.0.0.1:${port}`;
  // Readiness, not liveness: liveness answers from the first moments of a start, before the database is open,
  // and a case that opens the app first (the login) would time the server's start.
  await waitFor(`${base}/api/health/ready`, child);
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once("exit", done);
      child.kill("SIGTERM");
    });
  return { base, pid: child.pid, stop };
}

/** The demo investor signed in through the API of the server at `base`: the refresh token and the user the app keeps. */
export async function demoSession(base) {
  const reply = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: "demo", password: "demo2026pass" }),
  });
  if (!reply.ok) throw new Error(`the demo login answered ${reply.status}`);
  return reply.json();
}

/**
 * Puts `session` (`demoSession`'s) where the app keeps it in a browser `context` for the server at `base`: the refresh
 * token's cookie and the saved user, so the app opens the cabinet as after an earlier visit.
 */
export async function keepSession(context, base, session) {
  await context.addCookies([{ name: "kassa_token", value: session.refreshToken, url: base }]);
  await context.addInitScript((user) => localStorage.setItem("kassa.user", user), JSON.stringify(session.user));
}
