// `npm run bench:reply-check`: what checking a reply against the contract costs the page, on a full page of the
// longest list (100 operations, the contract's page limit, about 22 KB of JSON), the demo investor's rows repeated:
// zod's check on the main thread (as before replies were checked in a worker) beside the worker's way
// (`src/lib/reply-check.ts`: the page only posts the reply; the round trip until the checked value is back), at
// the launch benchmark's 4× slower CPU (BENCH_CPU to change it). Medians of 30 after one warm-up each. The built
// app's own contract chunk and worker file are used (run `npm run build` first if the sources changed). Not a test.
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { startKassa } from "./lib/demo-server.mjs";
import { buildIsStale } from "./lib/freshness.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./lib/system.mjs";

process.chdir(resolve(import.meta.dirname, ".."));
if (buildIsStale()) throw new Error("the build is older than the sources: run npm run build first");
const assets = readdirSync("dist/assets");
const contract = assets.find((f) => /^contract-.*\.js$/.test(f));
const worker = assets.find((f) => /^reply-check\.worker-.*\.js$/.test(f));
const kassa = await startKassa({ quiet: true });
const base = kassa.base;
const session = await (
  await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: "demo", password: "demo2026pass" }),
  })
).json();
const one = await (
  await fetch(`${base}/api/user/operations/?page=1&limit=100`, {
    headers: { authorization: `Bearer ${session.refreshToken}` },
  })
).json();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
const page = await browser.newPage();
await page.goto(`${base}/api/health`);
const cdp = await page.context().newCDPSession(page);
await cdp.send("Emulation.setCPUThrottlingRate", { rate: Number(process.env.BENCH_CPU ?? 4) });
const result = await page.evaluate(
  async ({ contract, worker, one }) => {
    const rows = [];
    for (let i = 0; i < 100; i++) {
      const src = one.items[i % one.items.length];
      rows.push({ ...src, id: `${src.id}-${i}` });
    }
    const data = { ...one, items: rows, limit: 100 };
    const m = await import(`/assets/${contract}`);
    const found = Object.values(m).find(
      (v) => v && typeof v === "object" && (v.operations?.response?.safeParse || v.routes?.operations),
    );
    const routes = found?.routes ?? found;
    const w = new Worker(`/assets/${worker}`);
    const ask = (id) =>
      new Promise((resolve) => {
        const on = (e) => {
          if (e.data.id === id) {
            w.removeEventListener("message", on);
            resolve(e.data);
          }
        };
        w.addEventListener("message", on);
        w.postMessage({ id, route: "operations", data });
      });
    await ask(-1); // warm both
    routes.operations.response.safeParse(data);
    const main = [],
      post = [],
      trip = [];
    for (let i = 0; i < 30; i++) {
      let t = performance.now();
      const ok = routes.operations.response.safeParse(data).success;
      main.push(performance.now() - t);
      if (!ok) throw new Error("page check failed");
      t = performance.now();
      const reply = ask(i);
      post.push(performance.now() - t);
      const r = await reply;
      trip.push(performance.now() - t);
      if (!r.ok) throw new Error("worker check failed");
    }
    const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
    return {
      rows: rows.length,
      bytes: JSON.stringify(data).length,
      mainCheck: med(main),
      mainPost: med(post),
      roundTrip: med(trip),
    };
  },
  { contract, worker, one },
);
const ms = (n) => `${n.toFixed(1)} ms`;
console.log(
  `A page of ${result.rows} operations (${(result.bytes / 1000).toFixed(1)} KB), CPU ${process.env.BENCH_CPU ?? 4}× slower, median of 30:`,
);
console.log(`  checked on the page (zod on the main thread):   ${ms(result.mainCheck)} of the main thread`);
console.log(
  `  checked in the worker: the page posts it in     ${ms(result.mainPost)} of the main thread; checked value back after ${ms(result.roundTrip)}`,
);
console.log(
  `load average: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(", ")}`,
);
await browser.close();
await kassa.stop();
