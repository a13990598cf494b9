/**
 * Screenshots to look at, with E2E_SCREENSHOTS=<dir> (skipped otherwise; whether the screens fit is the walk
 * of fit-and-a11y.test.ts, which covers these steps too): the cabinet with its total and income chart,
 * Deposits and the "Open a deposit" sheet's form and confirmation at 320 and 390 px in de and ru; Withdraw,
 * Partners and the registration form at 320 px in de, ru and kk; each in light and dark.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describe, it } from "vitest";
import { base, demoSession, readNotifications, screen } from "./support/app";
import { chromiumForFile, phoneContext } from "./support/browser";
import { settle } from "./support/fit";
import type { Lng } from "./support/locales";

const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
chromiumForFile((shared) => {
  browser = shared;
});

async function signInAsDemo(context: BrowserContext, page: Page) {
  await page.goto(`${base()}/login`);
  await screen(page, "login");
  const { token: refreshToken, user } = await demoSession();
  await readNotifications(refreshToken);
  await context.addCookies([{ name: "kassa_token", value: refreshToken, url: base() }]);
  await page.evaluate((u) => localStorage.setItem("kassa.user", JSON.stringify(u)), user);
}

async function openLanguage(page: Page, lng: Lng, path: string, name: string) {
  await page.evaluate((l) => localStorage.setItem("kassa.language", l), lng);
  await page.goto(`${base()}${path}`);
  try {
    await screen(page, name);
  } catch (error) {
    console.log(`[home-fit] ${page.url()}: ${(await page.locator("body").innerText()).slice(0, 300)}`);
    throw error;
  }
}

/** The cabinet with its total and income chart, Deposits, and the sheet's form and confirmation. */
async function walkHome(page: Page, lng: Lng, check: (step: string) => Promise<void>) {
  await openLanguage(page, lng, "/", "cabinet");
  await page.locator("[data-testid='overview-total']").waitFor({ timeout: 15_000 });
  await page.locator("[data-testid='income-chart']").waitFor({ timeout: 15_000 });
  await settle(page);
  await check("cabinet");
  await openLanguage(page, lng, "/deposits", "deposits");
  await page.locator("[data-testid='deposit-row']").first().waitFor({ timeout: 15_000 });
  await settle(page);
  await check("deposits");
  await page.locator("[data-testid='open-deposit']").click();
  const amount = page.locator("input[name='amount']");
  await amount.waitFor();
  await settle(page);
  await check("deposit form");
  // The plan's minimum (the field's placeholder says "min – max"); the demo's balance pays it.
  const min = ((await amount.getAttribute("placeholder")) ?? "").split("–")[0]?.trim() ?? "";
  await amount.fill(min);
  await page.locator("[role='dialog'] [data-testid='submit']").click();
  await page.locator("[data-testid='deposit-confirmation']").waitFor({ timeout: 10_000 });
  await settle(page);
  await check("deposit confirmation");
}

describe("screenshots", () => {
  it.runIf(SHOTS)(
    "screenshots: light and dark, 320 and 390 px, de and ru",
    async () => {
      const dir = SHOTS as string;
      mkdirSync(dir, { recursive: true });
      for (const width of [320, 390])
        for (const scheme of ["light", "dark"] as const) {
          const context = await phoneContext(browser, { viewport: { width, height: 844 }, colorScheme: scheme });
          const page = await context.newPage();
          await signInAsDemo(context, page);
          for (const lng of ["de", "ru"] as const)
            await walkHome(page, lng, async (step) => {
              await page.screenshot({
                path: join(dir, `home-${step.replace(/ /g, "-")}-${width}-${scheme}-${lng}.png`),
                fullPage: step === "cabinet" || step === "deposits",
              });
            });
          await context.close();
        }
    },
    600_000,
  );

  it.runIf(SHOTS)(
    "screenshots: Withdraw, Partners and the registration form, light and dark, 320 px, de, ru and kk",
    async () => {
      const dir = SHOTS as string;
      mkdirSync(dir, { recursive: true });
      for (const scheme of ["light", "dark"] as const) {
        const context = await phoneContext(browser, { viewport: { width: 320, height: 700 }, colorScheme: scheme });
        const page = await context.newPage();
        await page.goto(`${base()}/login`);
        for (const lng of ["de", "ru", "kk"] as const) {
          await openLanguage(page, lng, "/register/demo", "register");
          await settle(page);
          // The rules show after a first submit: the screenshot shows the errors as an investor meets them.
          await page.locator("input[name='login']").fill("a");
          await page.locator("[data-testid='submit']").click();
          await page.locator("[data-field-error]").first().waitFor();
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: join(dir, `form-register-320-${scheme}-${lng}.png`), fullPage: true });
        }
        await signInAsDemo(context, page);
        for (const lng of ["de", "ru", "kk"] as const)
          for (const name of ["withdrawal", "partners"]) {
            await openLanguage(page, lng, `/${name}`, name);
            await settle(page);
            await page.screenshot({ path: join(dir, `${name}-320-${scheme}-${lng}.png`), fullPage: true });
          }
        await context.close();
      }
    },
    600_000,
  );
});
