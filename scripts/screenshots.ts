/**
 * `npm run screenshots`: every screen at 390×844, light and dark, from the real server and the
 * production build, into artifacts/screenshots/ — to look at what we built. `--readme` also renders the
 * README's pictures: docs/screenshots/login.png (light and dark side by side) and docs/screenshots/home.png
 * (the cabinet, the deposits and the settings, light above and dark below).
 * SCREENSHOT_LANGUAGE takes one language or several (`de,ru`); SCREENSHOT_WIDTH another phone width
 * (`320`); SCREENSHOT_PATHS only some screens (`/,/settings`). Refill is shot with each state's sheet open too
 * (`refill-sheet-waiting`, `-replenished`, `-rejected`: the demo's refills and one this script has the operator
 * reject), Deposits with its "Open a deposit" sheet (`deposits-sheet`). `--sheets` then puts, per language and
 * width, Deposits, its sheet, the three refill sheets and Settings in one picture (light above, dark below) into
 * docs/screenshots/ (`money-<language>-<width>.png`). The biometric lock's screen is shot inside a stand-in iOS
 * client (tests/e2e/support/telegram-client.ts) with the lock on, in each state: `lock-checking` (Face ID asked
 * again, the answer not in yet), `lock-refused`, `lock-denied` (access refused in Telegram's settings) and
 * `lock-unavailable` (no biometrics on the phone now); `SCREENSHOT_PATHS=/locked` shoots only those.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { launchChromium, phoneContext } from "../tests/e2e/support/browser";
import { ensureBuilt, ensureServerBuilt, startServer } from "../tests/e2e/support/server";
import {
  DARK_THEME,
  installTelegramClient,
  LIGHT_THEME,
  launchHash,
  newTelegramUser,
} from "../tests/e2e/support/telegram-client";

const OUT = resolve("artifacts/screenshots");
const SIGNED_OUT = ["/login", "/register/demo", "/forgot-password"];
const SIGNED_IN = [
  "/",
  "/refill",
  "/deposits",
  "/partners",
  "/withdrawal",
  "/operations",
  "/settings",
  "/settings/profile",
  "/settings/security",
  "/notifications",
  "/news",
  "/more",
];
const LANGUAGES = (process.env.SCREENSHOT_LANGUAGE ?? "en").split(",");
const LANGUAGE = LANGUAGES[0] ?? "en";
const WIDTH = Number(process.env.SCREENSHOT_WIDTH ?? 390);
const ONLY = process.env.SCREENSHOT_PATHS?.split(",");

async function signIn(context: BrowserContext, baseURL: string) {
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: "demo", password: "demo2026pass" }),
  });
  if (!res.ok) throw new Error(`demo sign-in failed: ${res.status}`);
  const { refreshToken, user } = (await res.json()) as { refreshToken: string; user: unknown };
  await context.addCookies([{ name: "kassa_token", value: refreshToken, url: baseURL }]);
  await context.addInitScript((u) => localStorage.setItem("kassa.user", JSON.stringify(u)), user);
}

const name = (path: string) => (path === "/" ? "cabinet" : path.slice(1).replaceAll("/", "-"));

/** The operator's token this script's server takes, to reject a refill so that every refill state has a sheet. */
const OPERATOR_TOKEN = "screenshots-operator-token-0123456789";
const REFILL_STATES = ["waiting", "replenished", "rejected"] as const;
/** What shows once a screen has its data (a busy machine can take longer than the network's quiet moment). */
const READY: Record<string, string> = {
  "/refill": "[data-testid='refill-row']",
  "/deposits": "[data-testid='deposit-row']",
  "/settings": "[data-screen='settings'] a[href^='/settings/']",
};

/** A demo refill the operator rejected (the demo has a waiting one and a credited one). */
async function rejectedRefill(baseURL: string) {
  const login = await fetch(`${baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: "demo", password: "demo2026pass" }),
  });
  const { refreshToken } = (await login.json()) as { refreshToken: string };
  const created = await fetch(`${baseURL}/api/funds/refills`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${refreshToken}` },
    body: JSON.stringify({ paymentSystemId: "ton", amount: "25" }),
  });
  if (!created.ok) throw new Error(`refill for the screenshots: ${created.status}`);
  const { id } = (await created.json()) as { id: string };
  const rejected = await fetch(`${baseURL}/api/operator/refills/${id}/reject`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${OPERATOR_TOKEN}` },
    body: JSON.stringify({ note: "No payment arrived" }),
  });
  if (!rejected.ok) throw new Error(`rejecting the screenshots' refill: ${rejected.status}`);
}

/**
 * One picture of screens already taken: each row of `rows` in light, then each in dark, every shot `width`
 * px wide on a grey ground, into `target`.
 */
async function composite(
  browser: Browser,
  rows: string[][],
  width: number,
  target: string,
  { language = LANGUAGE, suffix = "" } = {},
) {
  const img = (screen: string, scheme: string) =>
    `data:image/png;base64,${readFileSync(join(OUT, `${screen}-${language}-${scheme}${suffix}.png`)).toString("base64")}`;
  const lines = (["light", "dark"] as const).flatMap((scheme) =>
    rows.map((row) => row.map((screen) => `<img src="${img(screen, scheme)}" width="${width}">`).join("")),
  );
  const single = rows.length === 1 && rows[0]?.length === 1;
  const html = `<style>body{margin:0;background:#8e8e93;padding:24px;display:flex;align-items:flex-start;flex-direction:${single ? "row" : "column"};gap:24px;width:max-content}
    div{display:flex;align-items:flex-start;gap:24px}img{border-radius:24px;display:block;height:auto}</style>${lines.map((l) => `<div>${l}</div>`).join("")}`;
  const page = await browser.newPage({ viewport: { width: 400, height: 400 } });
  await page.setContent(html);
  await page.screenshot({ path: target, fullPage: true });
  await page.close();
}

/**
 * The locked screen in each state, as an iPhone's Telegram shows it: a Telegram user signs in, turns the lock on
 * in Settings → Security, and the Mini App is opened again while the stand-in client answers Face ID as each
 * state needs (tests/e2e/support/telegram-client.ts, its session-storage switches).
 */
async function lockScreens(browser: Browser, baseURL: string, language: string, scheme: "light" | "dark") {
  const theme = scheme === "dark" ? DARK_THEME : LIGHT_THEME;
  const context = await phoneContext(browser, { colorScheme: scheme, viewport: { width: WIDTH, height: 844 } });
  await context.addInitScript((l) => localStorage.setItem("kassa.language", l), language);
  // tsx compiles this script keeping functions' names (esbuild's `__name(...)` around them), and the stand-in's
  // code goes to the page as its text: the page needs the helper too (vitest's transform adds none).
  await context.addInitScript("globalThis.__name = (fn) => fn;");
  await installTelegramClient(context, theme, { keychain: new Map(), biometrics: { available: true, grant: true } });
  const page = await context.newPage();
  const user = newTelegramUser(730_000_000, () => ({ first_name: "Lock", language_code: language }));
  const launch = launchHash({ user, platform: "ios", version: "9.0", theme });
  const screen = (name: string) => page.locator(`[data-screen='${name}']`).first().waitFor({ timeout: 30_000 });
  await page.goto(`${baseURL}/${launch}`);
  await screen("cabinet");
  await page.goto(`${baseURL}/settings/security${launch}`);
  const toggle = page.locator("[data-testid='biometric-lock']");
  await toggle.waitFor({ state: "attached", timeout: 30_000 });
  await page.locator("label:has([data-testid='biometric-lock'])").first().click();
  for (let i = 0; !(await toggle.isChecked()); i++) {
    if (i > 100) throw new Error("the biometric lock did not turn on");
    await page.waitForTimeout(100);
  }
  const suffix = WIDTH === 390 ? "" : `-${WIDTH}`;
  const shot = async (state: string) => {
    await page.mouse.move(0, 0);
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(OUT, `lock-${state}-${language}-${scheme}${suffix}.png`) });
  };
  /** The Mini App closed and opened again, the stand-in told what to answer first. */
  const reopen = async (switches: Record<string, string | null>) => {
    await page.evaluate((all) => {
      for (const [key, value] of Object.entries(all))
        if (value === null) sessionStorage.removeItem(key);
        else sessionStorage.setItem(key, value);
    }, switches);
    await page.goto("about:blank");
    await page.goto(`${baseURL}/${launch}`);
    await screen("locked");
    await page.locator("[data-testid='lock-try-again']").waitFor();
  };
  await reopen({ "tg-biometry-answer": "failed" });
  await shot("refused");
  // "Try again" with Face ID still on the phone's screen: the client's answer held back.
  await page.evaluate(() => {
    const proxy = (window as unknown as { TelegramWebviewProxy: { postEvent(type: string, data?: string): void } })
      .TelegramWebviewProxy;
    const post = proxy.postEvent.bind(proxy);
    proxy.postEvent = (type, data) => {
      if (type !== "web_app_biometry_request_auth") post(type, data);
    };
  });
  await page.locator("[data-testid='lock-try-again']").click();
  await page.waitForTimeout(300);
  await shot("checking");
  await reopen({ "tg-biometry-answer": null, "tg-biometry-granted": null });
  await page.locator("[data-testid='lock-open-settings']").waitFor();
  await shot("denied");
  await reopen({ "tg-biometry-granted": "1", "tg-biometry-unavailable": "1" });
  await shot("unavailable");
  await context.close();
}

async function main() {
  ensureBuilt();
  await ensureServerBuilt();
  mkdirSync(OUT, { recursive: true });
  const server = await startServer({ LOG_LEVEL: "error", OPERATOR_TOKEN });
  await rejectedRefill(server.baseURL);
  const browser = await launchChromium();
  try {
    for (const language of LANGUAGES)
      for (const scheme of ["light", "dark"] as const) {
        for (const signedIn of [false, true]) {
          const paths = (signedIn ? SIGNED_IN : SIGNED_OUT).filter((p) => !ONLY || ONLY.includes(p));
          if (paths.length === 0) continue;
          const context = await phoneContext(browser, {
            colorScheme: scheme,
            viewport: { width: WIDTH, height: 844 },
          });
          await context.addInitScript((l) => localStorage.setItem("kassa.language", l), language);
          if (signedIn) await signIn(context, server.baseURL);
          const page = await context.newPage();
          for (const path of paths) {
            await page.goto(`${server.baseURL}${path}`, { waitUntil: "networkidle" });
            const ready = READY[path];
            if (ready) await page.locator(ready).first().waitFor({ timeout: 30_000 });
            await page.waitForTimeout(300);
            const suffix = WIDTH === 390 ? "" : `-${WIDTH}`;
            const shot = (screen: string) =>
              page.screenshot({ path: join(OUT, `${screen}-${language}-${scheme}${suffix}.png`) });
            await shot(name(path));
            const sheet = async (open: string, screen: string) => {
              await page.locator(open).first().click();
              await page.locator("[role='dialog']").first().waitFor();
              // The pointer off the sheet, so no row shows as hovered.
              await page.mouse.move(0, 0);
              await page.waitForTimeout(500);
              await shot(screen);
              await page.keyboard.press("Escape");
              await page.locator("[role='dialog']").first().waitFor({ state: "detached" });
            };
            if (path === "/refill")
              for (const state of REFILL_STATES)
                await sheet(`[data-testid='refill-row'][data-status='${state}']`, `refill-sheet-${state}`);
            if (path === "/deposits") await sheet("[data-testid='open-deposit']", "deposits-sheet");
          }
          await context.close();
        }
        if (!ONLY || ONLY.includes("/locked")) await lockScreens(browser, server.baseURL, language, scheme);
      }
    if (process.argv.includes("--readme")) {
      await composite(browser, [["login"]], 390, "docs/screenshots/login.png");
      await composite(browser, [["cabinet", "deposits", "settings"]], 300, "docs/screenshots/home.png");
    }
    if (process.argv.includes("--sheets")) {
      const suffix = WIDTH === 390 ? "" : `-${WIDTH}`;
      const row = ["deposits", "deposits-sheet", ...REFILL_STATES.map((s) => `refill-sheet-${s}`), "settings"];
      for (const language of LANGUAGES)
        await composite(browser, [row], 300, `docs/screenshots/money-${language}-${WIDTH}.png`, { language, suffix });
    }
    writeFileSync(join(OUT, "README.txt"), "Made by npm run screenshots; not committed.\n");
    console.log(`[screenshots] written to ${OUT}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
