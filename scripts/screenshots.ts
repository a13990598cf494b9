/**
 * `npm run screenshots`: every screen at 390×844, light and dark, from the real server and the
 * production build, into artifacts/screenshots/ — to look at what we built. `--readme` also renders the
 * README's pictures: docs/screenshots/login.png (light and dark side by side) and docs/screenshots/home.png
 * (the cabinet, the deposits and the settings, light above and dark below).
 * SCREENSHOT_LANGUAGE takes one language or several (`de,ru`); SCREENSHOT_WIDTH another phone width
 * (`320`); SCREENSHOT_PATHS only some screens (`/,/settings`).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { launchChromium, phoneContext } from "../tests/e2e/support/browser";
import { ensureBuilt, startServer } from "../tests/e2e/support/server";

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

/**
 * One picture of screens already taken: each row of `rows` in light, then each in dark, every shot `width`
 * px wide on a grey ground, into `target`.
 */
async function composite(browser: Browser, rows: string[][], width: number, target: string) {
  const img = (screen: string, scheme: string) =>
    `data:image/png;base64,${readFileSync(join(OUT, `${screen}-${LANGUAGE}-${scheme}.png`)).toString("base64")}`;
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

async function main() {
  ensureBuilt();
  mkdirSync(OUT, { recursive: true });
  const server = await startServer({ LOG_LEVEL: "error" });
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
            await page.waitForTimeout(300);
            const suffix = WIDTH === 390 ? "" : `-${WIDTH}`;
            await page.screenshot({ path: join(OUT, `${name(path)}-${language}-${scheme}${suffix}.png`) });
          }
          await context.close();
        }
      }
    if (process.argv.includes("--readme")) {
      await composite(browser, [["login"]], 390, "docs/screenshots/login.png");
      await composite(browser, [["cabinet", "deposits", "settings"]], 300, "docs/screenshots/home.png");
    }
    writeFileSync(join(OUT, "README.txt"), "Made by npm run screenshots; not committed.\n");
    console.log(`[screenshots] written to ${OUT}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
