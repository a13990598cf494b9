// Where a cold launch's main thread goes (a measurement, not a test): `node scripts/trace-launch.mjs [path]` starts
// Kassa as the benchmarks do (`npm start`'s command, the demo data) and opens the path in Debian's Chromium on the
// benchmarks' phone context with its CPU 4× slower, signed in as the demo investor unless the path is the login's.
// It records a performance trace for 6 s and prints each task of the page's main thread over 50 ms: when it
// started (from the navigation), how long it took and what inside it took longest (a script's evaluation and its
// URL, a timer, style and layout, a module's evaluation). One launch: run it a few times and compare tasks.
import { chromium } from "playwright-core";
import { demoSession, keepSession, startKassa } from "./lib/demo-server.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, PHONE_CONTEXT } from "./lib/system.mjs";

const [path = "/"] = process.argv.slice(2);
const signedIn = !path.startsWith("/login");

/** Events counted inside a task, by name; the rest (compositing, small bookkeeping) are left out of its breakdown. */
const SHOWN = new Set([
  "EvaluateScript",
  "FunctionCall",
  "ParseHTML",
  "UpdateLayoutTree",
  "Layout",
  "v8.compile",
  "TimerFire",
  "FireAnimationFrame",
  "EventDispatch",
  "ParseAuthorStyleSheet",
  "Paint",
  "PrePaint",
  "RunMicrotasks",
  "v8.evaluateModule",
  "MinorGC",
  "MajorGC",
  // V8 reparsing a function or the whole script for the source positions of a stack it captures: under the DevTools
  // protocol (Lighthouse, Playwright) an Error created while a script evaluates captures a detailed stack.
  "V8.CollectSourcePositions",
  "V8.ParseProgram",
  "V8.ParseFunction",
]);

const kassa = await startKassa({ quiet: true });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const { base } = kassa;
  const context = await browser.newContext(PHONE_CONTEXT);
  if (signedIn) await keepSession(context, base, await demoSession(base));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await browser.startTracing(page, {
    categories: [
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "v8.execute",
      "disabled-by-default-v8.compile",
    ],
  });
  await page.goto(`${base}${path}`);
  await page.waitForTimeout(6000);
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
  // The page's main thread: the renderer's main thread that ran the most (a navigation can change renderers).
  const ran = (thread) =>
    traceEvents
      .filter((event) => event.pid === thread.pid && event.tid === thread.tid && event.name === "RunTask")
      .reduce((sum, event) => sum + (event.dur ?? 0), 0);
  const [main] = traceEvents
    .filter((event) => event.name === "thread_name" && event.args?.name === "CrRendererMain")
    .sort((a, b) => ran(b) - ran(a));
  if (!main) throw new Error("the trace has no renderer's main thread");
  const events = traceEvents
    .filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === "X")
    .sort((a, b) => a.ts - b.ts);
  const start = traceEvents.find((event) => event.name === "navigationStart")?.ts ?? events[0]?.ts ?? 0;
  for (const task of events.filter((event) => event.name === "RunTask" && event.dur > 50_000)) {
    const parts = new Map();
    for (const event of events) {
      if (event === task || !SHOWN.has(event.name)) continue;
      if (event.ts < task.ts || event.ts + (event.dur ?? 0) > task.ts + task.dur) continue;
      const data = event.args?.data ?? event.args?.beginData ?? {};
      const what = String(data.url ?? data.functionName ?? data.type ?? "").slice(-48);
      const key = `${event.name} ${what}`.trim();
      parts.set(key, (parts.get(key) ?? 0) + (event.dur ?? 0));
    }
    console.log(`task at ${((task.ts - start) / 1000).toFixed(0)} ms: ${(task.dur / 1000).toFixed(0)} ms`);
    for (const [key, duration] of [...parts].sort((a, b) => b[1] - a[1]).slice(0, 6))
      console.log(`  ${(duration / 1000).toFixed(0).padStart(5)} ms  ${key}`);
  }
} finally {
  await browser.close();
  await kassa.stop();
}
