// What a page load costs the end-to-end tests' Chromium (a measurement, not a test): `node scripts/cpu-by-process.mjs
// -- npx tsx scripts/page-loads.ts [path] [count]` starts Kassa as the benchmarks do (the demo data), launches
// Chromium as the end-to-end tests do (`launchChromium`, their switches) and opens `path` (default `/`, the demo
// investor's cabinet; `/login` signed out) `count` times (default 20), each in a new phone context as a test opens
// one, until its screen shows; the wrapper prints the CPU of each kind of process (Chromium's browser, renderers, GPU
// and utility processes, the server) over the run. Run it once with a count of 0 (the launch, the sign-in) and
// subtract: what is left is `count` loads. A third argument `same-page` loads `path` again and again in one page
// instead, as the tests that share a page load their screens afresh in it.
import { launchChromium, phoneContext } from "../tests/e2e/support/browser";
import { demoSession, keepSession, startKassa } from "./lib/demo-server.mjs";

const [path = "/", count = "20", mode = "new-page"] = process.argv.slice(2);
const screen = path.startsWith("/login") ? "login" : "cabinet";
const kassa = await startKassa({ quiet: true });
const browser = await launchChromium();
try {
  const session = screen === "cabinet" ? await demoSession(kassa.base) : null;
  const open = async () => {
    const context = await phoneContext(browser);
    if (session) await keepSession(context, kassa.base, session);
    return { context, page: await context.newPage() };
  };
  const shared = mode === "same-page" ? await open() : null;
  const started = performance.now();
  for (let i = 0; i < Number(count); i++) {
    const { context, page } = shared ?? (await open());
    await page.goto(`${kassa.base}${path}`);
    await page.locator(`[data-screen='${screen}']`).first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    if (!shared) await context.close();
  }
  await shared?.context.close();
  const each = Number(count) > 0 ? (performance.now() - started) / Number(count) : 0;
  console.log(`[page-loads] ${count} loads of ${path} (${mode}), ${each.toFixed(0)} ms each (wall)`);
} finally {
  await browser.close();
  await kassa.stop();
}
