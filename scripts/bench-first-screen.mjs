// `node scripts/bench-first-screen.mjs [rounds]`: what the server's render of the cabinet's first screen
// (`GET /app/first-screen`) costs a call, beside its ceilings in one run: the server's own `/api/health`, and the
// calls whose replies it carries (`/api/user/overview`, `/api/user/me`). Starts Kassa as `npm start` does (a built
// app: `npm run build` first), signs the demo investor in, sends the calls one after another in turns and prints each
// median and its ratio to `/api/health`, with the load average.
import { loadavg } from "node:os";
import { demoSession, startKassa } from "./lib/demo-server.mjs";

const rounds = Number(process.argv[2] ?? 300);
const { base, stop } = await startKassa({ quiet: true });
try {
  const { refreshToken } = await demoSession(base);
  const auth = { Authorization: `Bearer ${refreshToken}` };
  const cases = {
    health: [`${base}/api/health`, {}],
    overview: [`${base}/api/user/overview`, auth],
    me: [`${base}/api/user/me`, auth],
    "first-screen": [`${base}/api/app/first-screen?language=de&platform=base&appearance=dark`, auth],
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
  for (const [name, values] of Object.entries(times))
    console.log(
      `${name.padEnd(13)} median ${median(values).toFixed(2)} ms, ${(median(values) / health).toFixed(1)} × /api/health`,
    );
  console.log(
    `load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}, ${rounds} rounds`,
  );
} finally {
  await stop();
}
