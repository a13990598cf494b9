// `node scripts/bench-first-screen.mjs [rounds]`: what the cabinet's first screen (`GET /app/first-screen`: the
// launch's calls made through the server's own routes, and the screen rendered from two of their replies) costs a
// call, beside its ceilings in one run: the server's own `/api/health`, and each of the calls it answers sent alone
// (their URLs as its reply lists them) with their sum. Starts Kassa as `npm start` does (a built app: `npm run build`
// first), signs the demo investor in, sends the calls one after another in turns and prints each median and its
// ratio to `/api/health`, with the load average. `BENCH_ROWS=<n>`: instead of the demo investor, one with a long
// history made through the API (scripts/lib/long-history.mjs: n confirmed refills, as many operations and
// notifications; the server then runs in development mode, which the seeding needs).
import { loadavg } from "node:os";
import { demoSession, startKassa } from "./lib/demo-server.mjs";
import { seedLongHistory } from "./lib/long-history.mjs";

const rounds = Number(process.argv[2] ?? 300);
const ROWS = process.env.BENCH_ROWS ? Number(process.env.BENCH_ROWS) : null;
const OPERATOR_TOKEN = "bench-first-screen-operator-token-0123456789";
const { base, stop } = await startKassa({
  quiet: true,
  ...(ROWS ? { env: { NODE_ENV: "development", OPERATOR_TOKEN, SESSION_TTL_DAYS: "365" } } : {}),
});
try {
  const token = ROWS
    ? (await seedLongHistory({ base, operatorToken: OPERATOR_TOKEN, operations: ROWS })).token
    : (await demoSession(base)).refreshToken;
  if (ROWS) console.log(`an investor with ${ROWS} operations and notifications`);
  const auth = { Authorization: `Bearer ${token}` };
  const firstScreen = `${base}/api/app/first-screen?language=de&appearance=dark`;
  const { replies } = await (await fetch(firstScreen, { headers: auth })).json();
  const cases = {
    health: [`${base}/api/health`, {}],
    ...Object.fromEntries(replies.map(({ url }) => [url, [`${base}/api${url}`, auth]])),
    "first-screen": [firstScreen, auth],
  };
  const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1)
    for (const [name, [url, headers]] of Object.entries(cases)) {
      const started = performance.now();
      const reply = await fetch(url, { headers });
      const body = await reply.json();
      if (reply.status !== 200) throw new Error(`${name} answered ${reply.status}`);
      if (name === "first-screen" && typeof body.markup !== "string") throw new Error("no markup: is the app built?");
      times[name].push(performance.now() - started);
    }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const health = median(times.health);
  const line = (name, ms) =>
    console.log(`${name.padEnd(32)} median ${ms.toFixed(2)} ms, ${(ms / health).toFixed(1)} × /api/health`);
  let alone = 0;
  for (const [name, values] of Object.entries(times)) {
    line(name, median(values));
    if (name !== "health" && name !== "first-screen") alone += median(values);
  }
  line(`the ${replies.length} calls alone, summed`, alone);
  console.log(
    `load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}, ${rounds} rounds`,
  );
} finally {
  await stop();
}
