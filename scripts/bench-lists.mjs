// `npm run bench:lists`: what a tap on "Show more" costs in the long lists, the operations history and the
// notification inbox, on a 4× slower CPU. Starts the server as `npm start` does (building what is stale; in
// development mode, for the outbox and the clock the seeding needs), makes an investor with a long history
// through the API (scripts/lib/long-history.mjs: BENCH_ROWS confirmed refills over four days, so as many
// operations and notifications), then opens each list in Debian's Chromium (390×844) with the CPU throttled
// (Chrome DevTools Protocol: Emulation.setCPUThrottlingRate) and taps "Show more" until every row is loaded.
//
// A tap is timed in the page: scrolled to the button at the bottom (as the investor's thumb would be), from the
// click to the first frame after the button moved down (the new page is in the list, whatever the list renders),
// then one more frame, so that frame was painted; and, of that, the page's request (the server's reply over the
// loopback, which a busy machine slows too). It prints, for the taps that
// brought the loaded rows to about 220, 500, 820 and the last, the time and the DOM's elements and rows, and the
// median of the last ten taps beside the aim (≤ 100 ms at 1,000 rows); the load average beside it, since a busy
// machine is a slower phone. Not a test: nothing fails on a figure (tests/e2e/long-lists.test.ts proves the
// behaviour: rows in the DOM flat, every row reachable).
//
// Options (environment): BENCH_ROWS (default 1000), BENCH_CPU (default 4), BENCH_LISTS (`operations,inbox`),
// BENCH_BEFORE=<another checkout> (its production build, `<checkout>/dist`, served by this server: the same
// data, the app before a change), CHROMIUM_PATH.
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { startKassa } from "./lib/demo-server.mjs";
import { seedLongHistory } from "./lib/long-history.mjs";
import { cpuSeconds } from "./lib/process-tree.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, PHONE_CONTEXT } from "./lib/system.mjs";

process.chdir(resolve(import.meta.dirname, ".."));

const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const CPU = Number(process.env.BENCH_CPU ?? 4);
const LISTS = (process.env.BENCH_LISTS ?? "operations,inbox").split(",");
const BEFORE = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : null;
const AIM_MS = 100;
const OPERATOR_TOKEN = `bench-lists-${Math.random().toString(36).slice(2)}-operator`;

const SCREENS = {
  operations: { path: "/operations", screen: "operations", row: "[data-testid='operation-row']" },
  inbox: { path: "/notifications", screen: "notifications", row: "[data-testid='notification']" },
};

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** Taps "Show more" once, scrolled to it; returns the time to the painted frame with the new page. */
function tapInPage(rowSelector) {
  return new Promise((done) => {
    const button = document.querySelector("[data-testid='load-more']");
    if (!button) return done(null);
    window.scrollTo(0, document.documentElement.scrollHeight);
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const top = () => {
      const b = document.querySelector("[data-testid='load-more']");
      return b ? b.getBoundingClientRect().top + window.scrollY : Number.POSITIVE_INFINITY;
    };
    // Two frames for the rows about the bottom to be rendered and laid out before the tap.
    void frame()
      .then(frame)
      .then(async () => {
        const before = top();
        performance.clearResourceTimings();
        const start = performance.now();
        button.click();
        let end = await frame();
        while (top() <= before + 1) {
          if (performance.now() - start > 30_000) return done(null);
          end = await frame();
        }
        // The frame that showed the new page ran its rendering steps; the next one starts after that paint.
        end = await frame();
        // Of which the page's request: from asking to the reply's last byte (the server and the loopback).
        const request = performance
          .getEntriesByType("resource")
          .filter((e) => e.startTime >= start && /\/api\/(user\/operations|notification\/inbox)/.test(e.name))
          .at(-1);
        done({
          ms: end - start,
          requestMs: request ? request.responseEnd - request.startTime : Number.NaN,
          elements: document.getElementsByTagName("*").length,
          rows: document.querySelectorAll(rowSelector).length,
        });
      });
  });
}

async function measure(browser, base, session, list) {
  const spec = SCREENS[list];
  const context = await browser.newContext(PHONE_CONTEXT);
  await context.addCookies([{ name: "kassa_token", value: session.token, url: base }]);
  await context.addInitScript((u) => localStorage.setItem("kassa.user", JSON.stringify(u)), session.user);
  const page = await context.newPage();
  await page.goto(`${base}${spec.path}`);
  await page.locator(`[data-screen='${spec.screen}']`).first().waitFor({ timeout: 60_000 });
  await page.locator(spec.row).first().waitFor({ timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  const taps = [];
  let loaded = 20;
  for (;;) {
    const tap = await page.evaluate(tapInPage, spec.row);
    if (!tap) break;
    loaded += 20;
    taps.push({ ...tap, loaded: Math.min(loaded, ROWS) });
  }
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await context.close();
  return taps;
}

const pad = (s, n) => String(s).padStart(n);

function report(list, taps) {
  if (taps.length === 0) return console.log(`${list}: no "Show more" to tap`);
  const at = (rows) => taps.reduce((best, t) => (Math.abs(t.loaded - rows) < Math.abs(best.loaded - rows) ? t : best));
  const picks = [...new Set([at(220), at(500), at(820), taps.at(-1)])];
  console.log(`\n${list} (${taps.length} taps, CPU ${CPU}×, load average ${load()})`);
  console.log("  rows loaded   tap → painted   of which the request   DOM elements   rows in the DOM");
  for (const t of picks)
    console.log(
      `  ${pad(t.loaded, 11)}   ${pad(`${t.ms.toFixed(0)} ms`, 13)}   ${pad(`${t.requestMs.toFixed(0)} ms`, 20)}   ${pad(t.elements, 12)}   ${pad(t.rows, 15)}`,
    );
  const last = taps
    .slice(-10)
    .map((t) => t.ms)
    .sort((a, b) => a - b);
  const median = (values) => (values[(values.length - 1) >> 1] + values[values.length >> 1]) / 2;
  const requests = taps
    .slice(-10)
    .map((t) => t.requestMs)
    .sort((a, b) => a - b);
  console.log(
    `  median of the last ${last.length} taps: ${median(last).toFixed(0)} ms, of which the request ${median(requests).toFixed(0)} ms (aim ≤ ${AIM_MS} ms at 1,000 rows, CPU 4×)`,
  );
}

const staticDir = BEFORE ? join(BEFORE, "dist") : undefined;
if (staticDir && !existsSync(join(staticDir, "index.html")))
  throw new Error(`BENCH_BEFORE: no production build at ${staticDir} (npm run build there first)`);
console.log(
  `[bench:lists] load average ${load()}; starting the server${BEFORE ? " with the app of BENCH_BEFORE" : ""}…`,
);
const kassa = await startKassa({
  quiet: true,
  env: {
    NODE_ENV: "development",
    OPERATOR_TOKEN,
    SESSION_TTL_DAYS: "365",
    ...(staticDir ? { STATIC_DIR: staticDir } : {}),
  },
});
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
try {
  const seeding = Date.now();
  const serverCpu = cpuSeconds([kassa.pid]);
  const session = await seedLongHistory({ base: kassa.base, operatorToken: OPERATOR_TOKEN, operations: ROWS });
  // The server's CPU per refill asked for and confirmed (its two calls, one after another): the write path's cost.
  const perRefill = ((cpuSeconds([kassa.pid]) - serverCpu) * 1000) / ROWS;
  console.log(
    `[bench:lists] ${ROWS} operations and notifications in ${((Date.now() - seeding) / 1000).toFixed(0)} s; the server's CPU ${perRefill.toFixed(1)} ms per refill asked for and confirmed`,
  );
  for (const list of LISTS) report(list, await measure(browser, kassa.base, session, list));
} finally {
  await browser.close();
  await kassa.stop();
}
