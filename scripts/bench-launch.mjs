// `npm run bench:launch`: how fast the app launches on a slow phone. Starts the server as `npm start`
// does (building what is stale), signs the demo investor in through the API, then opens the app in
// Debian's Chromium under a phone profile: 390×844, 150 ms round trip, 1.6 Mbps down, 750 kbps up and
// the CPU 4× slower (Chrome DevTools Protocol: Network.emulateNetworkConditions,
// Emulation.setCPUThrottlingRate). For each case it measures a cold launch (a fresh browser profile,
// empty cache) and a warm one (the same profile again, the cache filled), the cases in turns (each case's first pair,
// then each case's second, …: the machine's load drifts over a run, and each case is compared with the web
// cabinet), and prints one table:
//
// - cabinet (signed in, `/`): navigation → the headline figure (the total) on screen, whoever painted it: the
//   launcher written into index.html paints it from its early replies before the app's code has run
//   (`data-testid='overview-total-painted'`, src/app/launcher/), the app then renders its own
//   (`data-testid='overview-total'`); "→ app" is the app's, when the cabinet is interactive;
// - tg-ios, tg-android, tg-desktop, tg-webk, tg-weba (`telegram` = tg-ios): the same inside each Telegram client, with
//   the e2e tests' stand-ins (tests/e2e/support/): the phones and the desktop simulated at their bridge, the session
//   kept in SecureStorage (iOS, Android) or DeviceStorage (Desktop); Web K and Web A hosting the app in a cross-site
//   frame of their page, the session in the frame's partitioned storage (the frame loads the app from the server
//   itself, so the cache and the throttling apply; one renderer process, so the CPU throttle does too). Also: the
//   figure's time after the app posted `web_app_ready`, in how many launches the launcher's painted figure showed,
//   and the ratio of each case's figure to the web cabinet's. No Lighthouse run;
// - login (signed out, `/login`): navigation → the login screen;
// - template (optional): another app's production build, served from a folder the same way (gzip,
//   hashed files under /assets cached for good, the rest revalidated): navigation → its first screen with
//   text. Give the folder as `BENCH_TEMPLATE_DIR=<folder>` or `-- --template <folder>`.
//
// Per case: the median time, FCP and LCP (the browser's paint entries), the requests until the app's own screen
// showed, the JS files among them and their gzip size (the body gzipped at level 9, as the bundle budget counts
// it) and the "waves": how many
// dependent round trips lead to the figure. A request depends on the latest request that finished before
// it started; the chain is walked back from the figure (and from the call that asks for the cabinet's balance:
// `GET /app/first-screen`, which answers it, or `GET /user/balance`) to the
// document, which counts as the first wave. This is a timing heuristic, the same for every case. "Blocking"
// is the main thread's long tasks as the throttled browser reported them (PerformanceObserver `longtask`), each
// task's time over 50 ms, from the first paint to 1.5 s after the app's figure: the blocking time of the real
// 4× CPU, beside Lighthouse's simulated TBT below.
//
// Then Lighthouse's mobile performance audit of each case (its default mobile profile: the same 150 ms, 1.6 Mbps
// and 4× CPU, simulated), in Debian's Chromium with a fresh profile (the cabinet's session put in first, without
// loading the app): the score, FCP, LCP, TBT, and the audits that cost time (render-blocking files, unused JS).
//
// Options (environment): BENCH_RUNS (launches of each kind per case, default 3), BENCH_CASES
// (`cabinet,tg-webk,tg-weba,tg-ios,tg-android,tg-desktop,login,template`), BENCH_LIGHTHOUSE (runs per case, default 1; 0 skips it), BENCH_LHR_DIR (keep
// each Lighthouse report there), BENCH_TRACE (print each cold launch's requests, and when its figure and the app's showed), BENCH_TG_ANSWER_DELAY (ms the phones'
// and Desktop's stand-ins take to answer each question over the bridge, the kept token's included: a busy phone;
// default 0, an answer a task later), CHROMIUM_PATH (default
// /usr/bin/chromium). Not a test: nothing fails on a figure; the load average is printed with the table, since a
// busy machine is a slower phone.
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { installTelegramClient, LIGHT_THEME, launchHash } from "../tests/e2e/support/telegram-client.ts";
import { launchChromiumAsTelegramWeb, openTelegramWeb, TELEGRAM_WEB } from "../tests/e2e/support/telegram-web.ts";
import { demoSession, freePort, startKassa } from "./lib/demo-server.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, PHONE_CONTEXT, PHONE_PROFILE, throttleToPhone } from "./lib/system.mjs";

process.chdir(resolve(import.meta.dirname, ".."));

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** How late the phones' and Desktop's stand-ins answer the app's every question over the bridge, in ms (a busy phone). */
const TG_ANSWER_DELAY = Number(process.env.BENCH_TG_ANSWER_DELAY ?? 0);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE ?? 1);
const lighthouseVersion = JSON.parse(readFileSync("node_modules/lighthouse/package.json", "utf8")).version;
const argTemplate = process.argv.indexOf("--template");
const TEMPLATE_DIR = argTemplate > 0 ? process.argv[argTemplate + 1] : process.env.BENCH_TEMPLATE_DIR;
const TELEGRAM_CASES = ["tg-webk", "tg-weba", "tg-ios", "tg-android", "tg-desktop"];
const CASES = (process.env.BENCH_CASES ?? `cabinet,${TELEGRAM_CASES.join(",")},login,template`)
  .split(",")
  .map((name) => (name === "telegram" ? "tg-ios" : name));

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

/** Another app's build folder, served as Kassa's server serves its own (gzip, the same cache rules). */
async function serveFolder(dir) {
  const root = resolve(dir);
  const gz = new Map();
  const find = (path) => {
    // A build made for a sub-path (GitHub Pages) asks for /<base>/…: try the path, then without its first part.
    const parts = path.split("/").filter(Boolean);
    for (const candidate of [parts, parts.slice(1)]) {
      const file = normalize(join(root, ...candidate));
      if (file.startsWith(root) && existsSync(file) && statSync(file).isFile()) return file;
    }
    return join(root, "index.html");
  };
  const server = createServer((req, res) => {
    const file = find(decodeURIComponent(new URL(req.url, "http://x").pathname));
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    res.setHeader("content-type", type);
    res.setHeader(
      "cache-control",
      file.includes(`${root}/assets/`) ? "public, max-age=31536000, immutable" : "no-cache",
    );
    if (/javascript|css|html|svg|json/.test(type) && /gzip/.test(req.headers["accept-encoding"] ?? "")) {
      if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(file)));
      res.setHeader("content-encoding", "gzip");
      res.end(gz.get(file));
      return;
    }
    createReadStream(file).pipe(res);
  });
  const port = await freePort();
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return { base: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => server.close(r)) };
}

/**
 * Records, from before the page's scripts run, when the figure first shows, and when the app's own does; once both
 * have, tells the bench through its binding (`SHOWN`), so that nothing of the bench runs in the page during a launch.
 */
function watchFor({ shown, app, painted, binding }) {
  const check = new Function(`return (${shown})`);
  const checkApp = new Function(`return (${app ?? shown})`);
  const checkPainted = new Function(`return (${painted ?? "false"})`);
  let told = false;
  const mark = () => {
    if (window.__shownAt === undefined && check()) window.__shownAt = performance.now();
    if (window.__appAt === undefined && checkApp()) window.__appAt = performance.now();
    if (window.__paintedAt === undefined && checkPainted()) window.__paintedAt = performance.now();
    if (!told && window.__shownAt !== undefined && window.__appAt !== undefined) {
      told = true;
      window[binding]?.();
    }
  };
  new MutationObserver(mark).observe(document, { childList: true, subtree: true, characterData: true });
  window.__lcp = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = entry.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  // The main thread's long tasks (over 50 ms) under the profile's real CPU throttle, for the blocking time.
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ at: entry.startTime, ms: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  // What moved, and when: the layout shifts (the elements named as tag, test id or classes).
  const name = (node) =>
    node?.nodeType !== 1
      ? String(node?.nodeName ?? "?")
      : `${node.nodeName.toLowerCase()}${node.dataset?.testid ? `[data-testid=${node.dataset.testid}]` : ""}${
          node.classList?.length ? `.${[...node.classList].slice(0, 2).join(".")}` : ""
        }`;
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (!entry.hadRecentInput)
        window.__shifts.push({
          value: entry.value,
          at: entry.startTime,
          sources: (entry.sources ?? []).map((source) => name(source.node)),
        });
  }).observe({ type: "layout-shift", buffered: true });
}

/** The headline figure with a digit: the app's (`overview-total`) or, for `shown`, the launcher's painted one as well. */
const figure = (ids) =>
  `[...document.querySelectorAll("${ids.map((id) => `[data-testid='${id}']`).join(", ")}")].some((e) => /\\d/.test(e.textContent))`;
const BALANCE = {
  shown: figure(["overview-total", "overview-total-painted"]),
  app: figure(["overview-total"]),
  painted: figure(["overview-total-painted"]),
};
const CONDITIONS = {
  cabinet: BALANCE,
  ...Object.fromEntries(TELEGRAM_CASES.map((name) => [name, BALANCE])),
  login: { shown: `document.querySelector("[data-screen='login'] input") !== null` },
  template: { shown: `(document.getElementById("root")?.innerText ?? "").trim() !== ""` },
};

/** Walks back from `at` (CDP seconds): each step, the request that finished last before it started. */
function chain(requests, at) {
  const steps = [];
  let point = at;
  for (;;) {
    const parent = requests
      .filter((r) => r.end !== undefined && r.end <= point && !r.failed)
      .sort((a, b) => b.end - a.end)[0];
    if (!parent) break;
    steps.unshift(parent);
    if (parent.type === "Document") break;
    point = parent.start;
  }
  return steps;
}

/**
 * One launch: `open()` navigates (the page, or Telegram Web's frame) and gives the document to watch (`target`) and
 * when the app posted `web_app_ready` there (ms of its clock), if it did.
 */
async function launch(page, cdp, open, cold) {
  const requests = new Map();
  const onSent = (e) => {
    if (e.type === "Other" || e.request.url.startsWith("data:")) return;
    requests.set(e.requestId, { id: e.requestId, url: e.request.url, type: e.type, start: e.timestamp });
  };
  const onResponse = (e) => {
    const r = requests.get(e.requestId);
    if (r) r.fromCache = e.response.fromDiskCache || e.response.fromPrefetchCache || e.response.status === 304;
  };
  const onCache = (e) => {
    const r = requests.get(e.requestId);
    if (r) r.fromCache = true;
  };
  const bodies = [];
  const onFinished = (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.end = e.timestamp;
    r.transfer = e.encodedDataLength;
    if (cold && r.type === "Script")
      bodies.push(
        cdp
          .send("Network.getResponseBody", { requestId: e.requestId })
          .then((b) => {
            r.gzip = gzipSync(Buffer.from(b.body, b.base64Encoded ? "base64" : "utf8"), { level: 9 }).length;
          })
          .catch(() => undefined),
      );
  };
  const onFailed = (e) => {
    const r = requests.get(e.requestId);
    if (r) r.failed = true;
  };
  cdp.on("Network.requestWillBeSent", onSent);
  cdp.on("Network.responseReceived", onResponse);
  cdp.on("Network.requestServedFromCache", onCache);
  cdp.on("Network.loadingFinished", onFinished);
  cdp.on("Network.loadingFailed", onFailed);
  // Waited for without evaluating in the page: a poll's script would take the throttled main thread from the launch
  // (Playwright's injected script alone is 25–40 ms of it, at the moment a Telegram client's answer is due).
  const shownInPage = new Promise((resolve, reject) => {
    onShown = resolve;
    setTimeout(() => reject(new Error("the figure did not show within 60 s")), 60_000).unref();
  });
  const { target, readyAt } = await open();
  await shownInPage;
  // Let late paints settle before reading LCP; the chunks and calls of the screen are all in by then.
  await page.waitForTimeout(1500);
  const ready = await readyAt();
  const shown = await target.evaluate(() => ({
    shownAt: window.__shownAt,
    appAt: window.__appAt,
    paintedAt: window.__paintedAt,
    lcp: window.__lcp,
    shifts: window.__shifts,
    longTasks: window.__longTasks,
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0,
  }));
  await Promise.all(bodies);
  for (const [event, handler] of [
    ["Network.requestWillBeSent", onSent],
    ["Network.responseReceived", onResponse],
    ["Network.requestServedFromCache", onCache],
    ["Network.loadingFinished", onFinished],
    ["Network.loadingFailed", onFailed],
  ])
    cdp.off(event, handler);
  const list = [...requests.values()];
  const doc = list.find((r) => r.type === "Document");
  const figureAt = doc.start + shown.shownAt / 1000;
  if (process.env.BENCH_TRACE && cold) {
    // Every request of the launch: when it started and ended (ms after the document's), what, how big.
    const ms = (t) => String(Math.round((t - doc.start) * 1000)).padStart(5);
    for (const r of list.sort((a, b) => a.start - b.start))
      console.log(
        `${ms(r.start)} ${r.end ? ms(r.end) : "    —"} ${String(r.gzip ?? r.transfer ?? "").padStart(6)} ${r.type.padEnd(8)} ${new URL(r.url).pathname}`,
      );
    console.log(`${ms(figureAt)} figure`);
    if (shown.appAt !== undefined) console.log(`${ms(doc.start + shown.appAt / 1000)} app`);
  }
  // What the app's own screen needed: the requests sent until it showed (the painted figure comes before the code).
  const appAt = doc.start + Math.max(shown.shownAt, shown.appAt) / 1000;
  const before = list.filter((r) => r.start <= appAt);
  const js = before.filter((r) => r.type === "Script" && !r.fromCache);
  // The balance's own call, or the first screen's, which answers it.
  const balance = list.find((r) => /\/api\/(user\/balance|app\/first-screen)(\?|$)/.test(r.url));
  return {
    ms: shown.shownAt,
    appMs: shown.appAt,
    paintedMs: shown.paintedAt,
    readyMs: ready,
    fcp: shown.fcp,
    lcp: Math.max(shown.lcp, shown.fcp),
    requests: before.length,
    network: before.filter((r) => !r.fromCache).length,
    jsFiles: js.length,
    jsGzip: js.reduce((n, r) => n + (r.gzip ?? 0), 0),
    waves: chain(list, figureAt).length,
    balanceWaves: balance ? chain(list, balance.start).length + 1 : undefined,
    balanceSentMs: balance ? (balance.start - doc.start) * 1000 : undefined,
    shifts: shown.shifts ?? [],
    // Total blocking time as the browser saw it, from the first paint to 1.5 s after the app's figure: each long
    // task's time over 50 ms (Lighthouse's TBT runs to its estimate of interactivity, on a simulated CPU).
    blocking: (shown.longTasks ?? [])
      .filter((task) => task.at >= shown.fcp && task.at <= shown.appAt + 1500)
      .reduce((sum, task) => sum + Math.max(0, task.ms - 50), 0),
  };
}

/** The binding through which the page says its figures have shown, and who waits for it in this launch. */
const SHOWN = "__benchShown";
let onShown = () => undefined;

/** `watchFor` with the case's conditions and its binding to the bench, before the page's scripts. */
async function watchCase(context, name) {
  await context.exposeBinding(SHOWN, () => onShown());
  await context.addInitScript(watchFor, { ...CONDITIONS[name], binding: SHOWN });
}

/**
 * `RUNS` cold and warm launches of each case, in turns (each case's first, then each case's second, …): the machine's
 * load drifts over a run, and each case's figure is compared with the web cabinet's. A case's `start()` gives a fresh
 * profile's page, how to open the app in it and to leave it.
 */
async function measureInTurns(cases) {
  const results = cases.map(({ name }) => ({ name, cold: [], warm: [] }));
  // One launch in each browser not counted first: a fresh browser's first launch is slower, and it would always be the
  // same case's.
  for (const browser of new Set(cases.map((c) => c.browser))) {
    const { page, open, close } = await cases.find((c) => c.browser === browser).start();
    await launch(page, await throttleToPhone(page), open, false);
    await close();
  }
  for (let i = 0; i < RUNS; i++)
    for (const [at, { start }] of cases.entries()) {
      const { cold, warm } = results[at];
      const { page, open, leave, close } = await start();
      const cdp = await throttleToPhone(page);
      cold.push(await launch(page, cdp, open, true));
      await leave();
      warm.push(await launch(page, cdp, open, false));
      await close();
      // The next case's launch starts on a browser that has finished with this one (its renderer going away).
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  for (const { name, cold, warm } of results) {
    const ms = (runs, key) => s(median(runs.map((r) => r[key])));
    console.log(
      `[bench] ${name}: cold → figure ${ms(cold, "ms")}, → app ${ms(cold, "appMs")}; warm → figure ${ms(warm, "ms")}, → app ${ms(warm, "appMs")}; painted ${cold.filter((r) => r.paintedMs !== undefined).length}/${RUNS} cold, ${warm.filter((r) => r.paintedMs !== undefined).length}/${RUNS} warm; web_app_ready cold ${ms(cold, "readyMs")}`,
    );
  }
  return results;
}

/** The app at `url` in a page of a fresh phone context (`setup` puts the session, a client's bridge in first). */
function pageCase(browser, name, url, setup) {
  return {
    name,
    browser,
    start: async () => {
      const context = await browser.newContext(PHONE_CONTEXT);
      await context.addInitScript(KEEP_NAMES);
      await setup?.(context);
      await watchCase(context, name);
      const page = await context.newPage();
      const readyAt = () =>
        page.evaluate(() => window.__tgEvents?.find((event) => event.eventType === "web_app_ready")?.t);
      return {
        page,
        open: async () => {
          await page.goto(url, { waitUntil: "commit" });
          return { target: page, readyAt };
        },
        leave: () => page.goto("about:blank"),
        close: () => context.close(),
      };
    },
  };
}

/**
 * The app in Telegram Web K's or A's frame (`client`: k or a), the session kept in the frame's storage as the framed
 * store keeps it (its local-storage copy: a plain http frame's cookie is a third-party one, refused). The parent page
 * is loaded before the clock starts; the frame loads the app from the server itself (`base`).
 */
function telegramWebCase(browser, name, client, base, session) {
  return {
    name,
    browser,
    start: async () => {
      const web = await openTelegramWeb(browser, base, client, LIGHT_THEME);
      await web.context.addInitScript(KEEP_NAMES);
      // Chromium asks the user before a public site's frame reaches this machine's own address (Local Network Access).
      await web.context.grantPermissions(["local-network-access"], { origin: TELEGRAM_WEB });
      // Telegram Web's page is in: no more routing (it turns the browser's cache off).
      await web.context.unrouteAll();
      await web.context.addInitScript(
        ([origin, token, user]) => {
          if (location.origin !== origin) return;
          if (!localStorage.getItem("kassa.token")) localStorage.setItem("kassa.token", token);
          if (!localStorage.getItem("kassa.user")) localStorage.setItem("kassa.user", user);
          localStorage.setItem("kassa.language", "en");
        },
        [base, session.refreshToken, JSON.stringify(session.user)],
      );
      await watchCase(web.context, name);
      return {
        page: web.page,
        open: async () => {
          const since = await web.page.evaluate(() => performance.now());
          const frame = await web.mount({ initData: "", platform: `web${client}`, version: "9.1", origin: base });
          // The parent's clock to the frame's: both count from their own time origin.
          const readyAt = async () => {
            const ready = (await web.events()).find((e) => e.eventType === "web_app_ready" && (e.t ?? 0) >= since);
            if (ready?.t === undefined) return undefined;
            const parentOrigin = await web.page.evaluate(() => performance.timeOrigin);
            const frameOrigin = await frame.evaluate(() => performance.timeOrigin);
            return ready.t + parentOrigin - frameOrigin;
          };
          return { target: frame, readyAt };
        },
        leave: () => web.unmount(),
        close: () => web.context.close(),
      };
    },
  };
}

/**
 * tsx, which runs this file for the e2e stand-ins it imports, names their functions with esbuild's `__name`
 * helper, also inside the functions they put in the page: the page gets the helper first.
 */
const KEEP_NAMES = { content: "globalThis.__name = (f) => f;" };

/** An element Lighthouse names, as its selector and the start of its markup. */
function element(node) {
  if (!node) return "—";
  const snippet = String(node.snippet ?? "")
    .replace(/\s+/g, " ")
    .slice(0, 90);
  return `${node.selector ?? "?"} ${snippet}`;
}

/**
 * Lighthouse's mobile performance audit of `url` in a fresh Chromium profile; `setup` puts a session in first
 * (cookies, local storage on a page of the origin that is not the app, so nothing of it is cached).
 */
async function audit(url, setup) {
  const dir = mkdtempSync(join(tmpdir(), "kassa-lighthouse-"));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    await setup?.(context);
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      // The profile is fresh (an empty cache); resetting it would drop the session put in above.
      disableStorageReset: true,
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    // BENCH_LHR_DIR keeps each run's whole report (its long tasks, main-thread work and trace-derived audits).
    if (process.env.BENCH_LHR_DIR) {
      mkdirSync(process.env.BENCH_LHR_DIR, { recursive: true });
      const file = `${new URL(url).pathname.replace(/\W+/g, "_") || "_"}-${Date.now()}.json`;
      writeFileSync(join(process.env.BENCH_LHR_DIR, file), JSON.stringify(lhr));
    }
    const metric = (id) => lhr.audits[id]?.numericValue;
    const saving = (id) => {
      const details = lhr.audits[id]?.details;
      const items = details?.items ?? [];
      return { items: items.length, ms: details?.overallSavingsMs ?? 0, bytes: details?.overallSavingsBytes ?? 0 };
    };
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: metric("first-contentful-paint"),
      lcp: metric("largest-contentful-paint"),
      tbt: metric("total-blocking-time"),
      si: metric("speed-index"),
      cls: metric("cumulative-layout-shift"),
      blocking: saving("render-blocking-resources"),
      unusedJs: saving("unused-javascript"),
      // What the page's LCP was, and what moved (printed under the table).
      lcpElement: element(lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node),
      shifts: (lhr.audits["layout-shifts"]?.details?.items ?? []).map((item) => ({
        score: item.score,
        element: element(item.node),
      })),
      // For BENCH_JSON.
      finalUrl: lhr.finalDisplayedUrl,
      unusedJsFiles: (lhr.audits["unused-javascript"]?.details?.items ?? []).map((item) => [
        item.url,
        item.wastedBytes,
      ]),
    };
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = values.filter((v) => v !== undefined).sort((a, b) => a - b);
  if (!sorted.length) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const s = (ms) => (ms === undefined ? "—" : `${(ms / 1000).toFixed(2)} s`);
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

/** Local storage for the app's origin, written on a page of the origin that is not the app (its API's health). */
async function keepInStorage(context, base, items) {
  const page = await context.newPage();
  await page.goto(`${base}/api/health`);
  await page.evaluate((entries) => {
    for (const [key, value] of entries) localStorage.setItem(key, value);
  }, Object.entries(items));
  await page.close();
}

/** Lighthouse `LIGHTHOUSE_RUNS` times, the median score (and that run's figures). */
async function audits(url, setup) {
  const runs = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await audit(url, setup));
  return runs.sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)];
}

async function main() {
  const cases = [];
  /** Lighthouse's audits, run once every launch is measured. */
  const lighthouseCases = [];
  const lighthouseCase = (name, url, setup) => {
    if (LIGHTHOUSE_RUNS > 0) lighthouseCases.push({ name, url, setup });
  };
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const kassa = CASES.some((c) => c !== "template") ? await startKassa() : undefined;
  let webBrowser;
  let template;
  let results;
  const lighthouseResults = [];
  try {
    if (kassa && CASES.includes("cabinet")) {
      const session = await demoSession(kassa.base);
      const cookie = { name: "kassa_token", value: session.refreshToken, url: kassa.base };
      const user = JSON.stringify(session.user);
      cases.push(
        pageCase(browser, "cabinet", `${kassa.base}/`, async (context) => {
          await context.addCookies([cookie]);
          await context.addInitScript(
            ([user]) => {
              if (!localStorage.getItem("kassa.user")) localStorage.setItem("kassa.user", user);
              localStorage.setItem("kassa.language", "en");
            },
            [user],
          );
        }),
      );
      lighthouseCase("cabinet", `${kassa.base}/`, async (context) => {
        await context.addCookies([cookie]);
        await keepInStorage(context, kassa.base, { "kassa.user": user, "kassa.language": "en" });
      });
    }
    const clients = TELEGRAM_CASES.filter((name) => CASES.includes(name));
    if (kassa && clients.length > 0) {
      // The cabinet opened from each Telegram client, the demo investor's session kept where that client keeps it.
      const session = await demoSession(kassa.base);
      const user = JSON.stringify(session.user);
      for (const name of clients.filter((name) => !name.startsWith("tg-web"))) {
        const platform = { "tg-ios": "ios", "tg-android": "android", "tg-desktop": "tdesktop" }[name];
        const kind = platform === "tdesktop" ? "device" : "secure";
        const hash = launchHash({ initData: "", platform, version: "9.1" });
        cases.push(
          pageCase(browser, name, `${kassa.base}/${hash}`, async (context) => {
            await installTelegramClient(
              context,
              LIGHT_THEME,
              kind === "secure" ? { keychain: new Map() } : { deviceStorage: new Map() },
            );
            // The stand-in keeps its storages in session storage; the app's writes (a turned token) stay there.
            await context.addInitScript(
              ([slot, token, user, delay]) => {
                if (!sessionStorage.getItem(slot)) sessionStorage.setItem(slot, token);
                if (!localStorage.getItem("kassa.user")) localStorage.setItem("kassa.user", user);
                localStorage.setItem("kassa.language", "en");
                if (delay > 0) sessionStorage.setItem("tg-answer-delay", String(delay));
              },
              [`tg-${kind}:kassa_refresh_token`, session.refreshToken, user, TG_ANSWER_DELAY],
            );
          }),
        );
      }
      const webClients = clients.filter((name) => name.startsWith("tg-web"));
      if (webClients.length > 0) {
        // Telegram Web's browser: third-party cookies refused, storage partitioned; one renderer process for the
        // page and its frame, so that the CPU throttle set on the page applies to the app as well.
        webBrowser = await launchChromiumAsTelegramWeb(["--disable-site-isolation-trials"]);
        for (const name of webClients)
          cases.push(telegramWebCase(webBrowser, name, name.slice(-1), kassa.base, session));
      }
    }
    if (kassa && CASES.includes("login")) {
      cases.push(
        pageCase(browser, "login", `${kassa.base}/login`, (context) =>
          context.addInitScript(() => localStorage.setItem("kassa.language", "en")),
        ),
      );
      lighthouseCase("login", `${kassa.base}/login`, (context) =>
        keepInStorage(context, kassa.base, { "kassa.language": "en" }),
      );
    }
    if (TEMPLATE_DIR && CASES.includes("template")) {
      template = await serveFolder(TEMPLATE_DIR);
      cases.push(pageCase(browser, "template", `${template.base}/`));
      lighthouseCase("template", `${template.base}/`);
    }
    results = await measureInTurns(cases);
    for (const { name, url, setup } of lighthouseCases) lighthouseResults.push({ name, ...(await audits(url, setup)) });
  } finally {
    await webBrowser?.close();
    await template?.stop();
    await browser.close();
    await kassa?.stop();
  }

  const rows = [
    [
      "case",
      "cold → figure",
      "cold → app",
      "warm → figure",
      "warm → app",
      "÷ cabinet (cold / warm figure)",
      "figure after web_app_ready (cold / warm)",
      "painted (cold / warm)",
      "FCP cold",
      "LCP cold",
      "waves (to figure / balance sent)",
      "requests cold",
      "JS cold (gzip, files)",
      "blocking cold / warm",
    ],
  ];
  // Each case's figure against the web cabinet's (cold, warm), the time after `web_app_ready`, and how many
  // launches showed the launcher's painted figure.
  const web = results.find((r) => r.name === "cabinet");
  const ratio = (runs, of) => {
    const base = web && median(web[of].map((r) => r.ms));
    const mine = median(runs.map((r) => r.ms));
    return base && mine !== undefined ? (mine / base).toFixed(2) : "—";
  };
  const afterReady = (runs) => s(median(runs.map((r) => (r.readyMs === undefined ? undefined : r.ms - r.readyMs))));
  const painted = (runs) => `${runs.filter((r) => r.paintedMs !== undefined).length}/${runs.length}`;
  for (const { name, cold, warm } of results) {
    const bw = median(cold.map((r) => r.balanceWaves));
    rows.push([
      name,
      s(median(cold.map((r) => r.ms))),
      s(median(cold.map((r) => r.appMs))),
      s(median(warm.map((r) => r.ms))),
      s(median(warm.map((r) => r.appMs))),
      `${ratio(cold, "cold")} / ${ratio(warm, "warm")}`,
      `${afterReady(cold)} / ${afterReady(warm)}`,
      CONDITIONS[name] === BALANCE ? `${painted(cold)} / ${painted(warm)}` : "—",
      s(median(cold.map((r) => r.fcp))),
      s(median(cold.map((r) => r.lcp))),
      `${median(cold.map((r) => r.waves))}${bw === undefined ? "" : ` / ${bw} (at ${s(median(cold.map((r) => r.balanceSentMs)))})`}`,
      String(median(cold.map((r) => r.requests))),
      `${kb(median(cold.map((r) => r.jsGzip)))}, ${median(cold.map((r) => r.jsFiles))}`,
      `${Math.round(median(cold.map((r) => r.blocking)))} / ${Math.round(median(warm.map((r) => r.blocking)))} ms`,
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(
    `\nLaunch on a phone profile (390×844, ${PHONE_PROFILE.latencyMs} ms RTT, ${PHONE_PROFILE.downBps / 1e6} Mbps down, ${PHONE_PROFILE.upBps / 1e3} kbps up, CPU ${PHONE_PROFILE.cpu}× slower), median of ${RUNS}${TG_ANSWER_DELAY > 0 ? `; the phones' and Desktop's stand-ins answering ${TG_ANSWER_DELAY} ms late` : ""}:`,
  );
  console.log(line(rows[0]));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows.slice(1)) console.log(line(r));
  // The layout shifts of each case's first cold launch, largest first (Lighthouse's CLS counts the same kind).
  for (const { name, cold } of results) {
    const shifts = [...(cold[0]?.shifts ?? [])].sort((a, b) => b.value - a.value);
    const total = shifts.reduce((n, shift) => n + shift.value, 0);
    if (!shifts.length) continue;
    const top = shifts
      .slice(0, 3)
      .map((shift) => `${shift.value.toFixed(3)} at ${s(shift.at)} (${shift.sources.join(", ")})`)
      .join("; ");
    console.log(`${name}: layout shift ${total.toFixed(3)} in ${shifts.length}: ${top}`);
  }
  if (lighthouseResults.length) {
    const table = [
      [
        "case",
        "score",
        "FCP",
        "LCP",
        "TBT",
        "Speed Index",
        "CLS",
        "render-blocking (files, ms)",
        "unused JS (files, KB)",
      ],
      ...lighthouseResults.map((r) => [
        r.name,
        String(r.score),
        s(r.fcp),
        s(r.lcp),
        `${Math.round(r.tbt)} ms`,
        s(r.si),
        r.cls.toFixed(3),
        `${r.blocking.items}, ${Math.round(r.blocking.ms)} ms`,
        `${r.unusedJs.items}, ${kb(r.unusedJs.bytes)}`,
      ]),
    ];
    const w = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
    const row = (r) => `| ${r.map((c, i) => c.padEnd(w[i])).join(" | ")} |`;
    console.log(
      `\nLighthouse ${lighthouseVersion}, mobile performance (simulated throttling), median of ${LIGHTHOUSE_RUNS}:`,
    );
    console.log(row(table[0]));
    console.log(row(w.map((n) => "-".repeat(n))));
    for (const r of table.slice(1)) console.log(row(r));
    // What Lighthouse names (when its trace could say: not every headless Chromium gives it the elements).
    for (const r of lighthouseResults) {
      if (r.lcpElement !== "—") console.log(`${r.name}: LCP element ${r.lcpElement}`);
      for (const shift of r.shifts) console.log(`${r.name}: layout shift ${shift.score.toFixed(3)} ${shift.element}`);
    }
  }
  console.log(
    `load average: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  );
  if (process.env.BENCH_JSON) console.log(JSON.stringify({ results, lighthouse: lighthouseResults }, null, 2));
}

await main();
