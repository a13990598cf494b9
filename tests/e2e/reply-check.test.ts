/**
 * Every reply is checked against the contract before anyone sees it, and a cabinet's launch does that off the main
 * thread: the contract's code (zod and every schema) runs in a worker, and the page runs zod only when a form needs
 * it (the dialogs' code is downloaded ahead, not run). A reply that does not match is still refused; without the worker (its code refused) the
 * page checks by itself.
 */
import type { Browser, BrowserContext, Page, Worker } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, demoSession, screen, useSession } from "./support/app";
import { launchChromium, phoneContext } from "./support/browser";
import { kassaCli } from "./support/cli";
import { DEV_BOT_TOKEN, signedInitData } from "./support/telegram-client";
import { APP_ORIGIN, launchChromiumAsTelegramWeb, openTelegramWeb } from "./support/telegram-web";

/** A class name zod's build keeps as a string (its constructors register by name): present iff a file carries zod. */
const ZOD_MARK = /["'`]ZodObject["'`]/;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The cabinet of the demo investor (two currencies, income, a deposit), the workers it started and the calls it made. */
async function openCabinet(setup?: (context: BrowserContext) => Promise<unknown>) {
  const context = await phoneContext(browser);
  await setup?.(context);
  // biome-ignore lint/correctness/useHookAtTopLevel: the e2e helper, not a React hook.
  await useSession(context, await demoSession());
  const page = await context.newPage();
  const workers: string[] = [];
  const calls: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/api/")) calls.push(pathname);
  });
  page.on("worker", (worker) => workers.push(worker.url()));
  await page.goto(`${base()}/`);
  await page.locator("[data-testid='overview-total']").waitFor({ timeout: 60_000 });
  return { context, page, workers, calls };
}

async function carriesZod(page: Page, url: string): Promise<boolean> {
  const text = await page.evaluate(async (src) => (await fetch(src)).text(), url);
  return ZOD_MARK.test(text);
}

describe("the contract's check of replies", () => {
  it("runs in a worker during a cabinet's launch: the page evaluates no zod until a form opens", async () => {
    const { context, page, workers, calls } = await openCabinet();
    try {
      await page.locator("[data-testid='income-chart']").waitFor({ timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      // Each of the screen's calls once: a part mounting when its code came asked again for what had just come.
      for (const path of ["/api/user/balance", "/api/user/statistics", "/api/user/overview", "/api/user/income"])
        expect(
          calls.filter((call) => call === path),
          path,
        ).toHaveLength(1);
      const worker = workers.find((url) => /reply-check/.test(url));
      expect(worker, workers.join(", ")).toBeTruthy();
      expect(await carriesZod(page, worker as string)).toBe(true);
      // zod registers itself on the global object of the realm that runs it: the worker's, not the page's. Past
      // the moment the launch settled and the warm-ups' quiet moment, the code of the dialogs is downloaded, not run.
      await page.waitForFunction(() => performance.getEntriesByName("kassa:launch-settled").length > 0);
      await page.waitForTimeout(3_500);
      expect(await page.evaluate(() => "__zod_globalRegistry" in globalThis)).toBe(false);
      // A tap on Exchange runs the form's code (its amount rule is a zod schema) from what was downloaded.
      await page.locator("[data-testid='open-exchange']").click();
      await page.locator("input[name='amount']").waitFor({ timeout: 5_000 });
      expect(await page.evaluate(() => "__zod_globalRegistry" in globalThis)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("still refuses a reply that does not match: the income chart does not show a malformed reply", async () => {
    const { context, page } = await openCabinet((context) =>
      context.route(/\/api\/user\/income/, (route) =>
        route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ days: "none" }) }),
      ),
    );
    try {
      // The parts around it are in, the chart's room is given up, and no chart is drawn from what came.
      await page.locator("[data-testid='reserved-income']").waitFor({ state: "detached", timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      expect(await page.locator("[data-testid='income-chart']").count()).toBe(0);
      expect(await page.locator("[data-testid='overview-total']").isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("falls back to the page when the worker's code does not come: the replies are checked and shown", async () => {
    const { context, page } = await openCabinet((context) =>
      context.route(/reply-check\.worker/, (route) => route.abort()),
    );
    try {
      await page.locator("[data-testid='income-chart']").waitFor({ timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      // The page ran the contract itself.
      expect(await page.evaluate(() => "__zod_globalRegistry" in globalThis)).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe("the contract's check of replies inside Telegram Web", () => {
  let telegramBrowser: Browser;
  beforeAll(async () => {
    telegramBrowser = await launchChromiumAsTelegramWeb();
    await kassaCli("settings", "set", "telegramAuthAvailable", "true");
  });
  afterAll(async () => {
    await telegramBrowser?.close();
  });

  for (const client of ["a", "k"] as const)
    it(`runs in the Mini App's own worker in Web ${client.toUpperCase()}'s cross-site frame (storage partitioned)`, async () => {
      const id = 860_000_000 + Math.floor(Math.random() * 1e8);
      const initData = signedInitData(
        { id, first_name: "Vera", username: `vera${id}`, language_code: "de" },
        DEV_BOT_TOKEN,
      );
      const web = await openTelegramWeb(telegramBrowser, base(), client);
      const workers: Worker[] = [];
      web.page.on("worker", (worker) => workers.push(worker));
      try {
        const frame = await web.mount({ initData, platform: client === "a" ? "weba" : "webk", version: "9.1" });
        await screen(frame, "cabinet");
        // The whole picture's and the chart's rooms are given up once their checked replies are in.
        await frame.locator("[data-testid='reserved-income']").waitFor({ state: "detached", timeout: 60_000 });
        await frame.locator("[data-testid='balance']").first().waitFor();
        // The frame's worker, from the app's origin, has loaded the contract and checks there (the page itself
        // loads it too here: a new user's Telegram sign-in is a call whose route the contract gives).
        const worker = workers.find((w) => w.url().startsWith(APP_ORIGIN) && /reply-check/.test(w.url()));
        expect(worker, workers.map((w) => w.url()).join(", ")).toBeTruthy();
        expect(await worker?.evaluate(() => "__zod_globalRegistry" in globalThis)).toBe(true);
      } finally {
        await web.context.close();
      }
    });
});
