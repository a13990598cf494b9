// Where a cold cabinet launch's CPU goes, by package and by the app's own file (a measurement, not a test):
// `npx vite build --sourcemap && node scripts/profile-launch.mjs [launches]` starts Kassa as the benchmarks do (the
// demo data), signs the demo investor in and opens the cabinet cold in Debian's Chromium on the benchmarks' phone
// (its network and its 4× slower CPU), `launches` times (default 3), each with a trace and V8's sampling profile.
// Each sample is put on its source through the build's source maps and counted in two windows: the whole launch
// (navigation to the app's own figure) and the stretch after the cabinet's launch chunk starts evaluating (from
// there the app's code is all in, and the main thread alone decides when the cabinet can be used). Prints the
// milliseconds of the throttled CPU per launch, the largest first. Without source maps in `dist/` it prints only
// the files.
import { existsSync, readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { SourceMapConsumer } from "source-map-js";
import { demoSession, keepSession, startKassa } from "./lib/demo-server.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, PHONE_CONTEXT, throttleToPhone } from "./lib/system.mjs";

const LAUNCHES = Number(process.argv[2] ?? 3);
const SHOWN = 15;

/** A sample's source: the package it comes from, or the app's file; a file without a source map by its name. */
const maps = new Map();
function sourceOf(frame) {
  if (!frame.url) return frame.functionName || "(the engine)";
  const path = new URL(frame.url).pathname;
  if (!path.startsWith("/assets/")) return "the page's inline scripts";
  if (!maps.has(path)) {
    const file = `dist${path}.map`;
    maps.set(path, existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, "utf8"))) : null);
  }
  const source = maps.get(path)?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber }).source;
  if (!source) return path;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  return pkg ? pkg[1] : source.replace(/^(\.\.\/)+/, "");
}

/** The trace's CPU samples of the page's main thread: each with its time (trace clock, µs), weight and frame. */
function samplesOf(traceEvents) {
  const profiles = new Map();
  const nodes = new Map();
  const samples = [];
  for (const event of traceEvents) {
    if (event.name === "Profile") profiles.set(event.id, event.args.data.startTime);
    if (event.name !== "ProfileChunk") continue;
    const { cpuProfile, timeDeltas = [] } = event.args.data;
    for (const node of cpuProfile?.nodes ?? []) nodes.set(`${event.id}:${node.id}`, node.callFrame);
    // A profile's chunks continue one another: each sample's time is the last one's plus its delta.
    let at = profiles.get(event.id) ?? 0;
    (cpuProfile?.samples ?? []).forEach((id, i) => {
      at += timeDeltas[i] ?? 0;
      samples.push({ at, weight: timeDeltas[i + 1] ?? 0, frame: nodes.get(`${event.id}:${id}`) ?? {} });
    });
    profiles.set(event.id, at);
  }
  return samples;
}

const kassa = await startKassa({ quiet: true });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const windows = { launch: new Map(), "after the cabinet's chunk": new Map() };
const figures = [];
try {
  for (let run = 0; run < LAUNCHES; run++) {
    const context = await browser.newContext(PHONE_CONTEXT);
    await keepSession(context, kassa.base, await demoSession(kassa.base));
    await context.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (/\d/.test(document.querySelector("[data-testid='overview-total']")?.textContent ?? "")) {
          performance.mark("kassa:app-figure");
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const page = await context.newPage();
    await throttleToPhone(page);
    await browser.startTracing(page, {
      categories: ["devtools.timeline", "blink.user_timing", "disabled-by-default-v8.cpu_profiler"],
    });
    await page.goto(`${kassa.base}/`);
    await page.locator("[data-testid='overview-total']").waitFor({ timeout: 60_000 });
    await page.waitForTimeout(500);
    const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
    await context.close();
    const start = traceEvents.find((event) => event.name === "navigationStart")?.ts;
    const end = traceEvents.find((event) => event.name === "kassa:app-figure")?.ts;
    if (start === undefined || end === undefined) throw new Error("the trace has no navigation or no app figure");
    const samples = samplesOf(traceEvents).filter((sample) => sample.at >= start && sample.at <= end);
    const chunk = Math.min(
      ...samples.filter((sample) => /\/cabinet-launch-[^/]+\.js$/.test(sample.frame.url ?? "")).map((s) => s.at),
    );
    figures.push({ app: (end - start) / 1000, chunk: (chunk - start) / 1000 });
    for (const { at, weight, frame } of samples) {
      const source = sourceOf(frame);
      for (const [name, totals] of Object.entries(windows)) {
        if (name !== "launch" && at < chunk) continue;
        totals.set(source, (totals.get(source) ?? 0) + weight / 1000 / LAUNCHES);
      }
    }
  }
} finally {
  await browser.close();
  await kassa.stop();
}

const ms = (n) => `${n.toFixed(0)} ms`;
console.log(
  `${LAUNCHES} cold cabinet launches on the phone profile: the app's figure at ${figures.map((f) => ms(f.app)).join(", ")}, ` +
    `the cabinet's chunk evaluated from ${figures.map((f) => ms(f.chunk)).join(", ")}`,
);
for (const [name, totals] of Object.entries(windows)) {
  const busy = [...totals].filter(([source]) => source !== "(idle)");
  const sum = busy.reduce((n, [, v]) => n + v, 0);
  console.log(`\n${name}: ${ms(sum)} of the main thread's CPU a launch (4× slower), the largest:`);
  for (const [source, v] of busy.sort((a, b) => b[1] - a[1]).slice(0, SHOWN))
    console.log(`  ${ms(v).padStart(7)}  ${source}`);
}
