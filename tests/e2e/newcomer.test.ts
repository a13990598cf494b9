/**
 * A newcomer's first steps on the cabinet: a fresh investor is offered the refill (step 1) and its action opens the
 * refill screen; once a refill is credited, the deposit (step 2), whose action opens the deposit sheet; once a
 * deposit is opened the block is gone; the demo investor never sees it. Its texts fit at 320 px in ru and kk. With
 * E2E_SCREENSHOTS=<dir>, a newcomer's cabinet at 320 × 640 and 390 × 844 in ru and de, light and dark.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import {
  type ApiSession,
  base,
  demoSession,
  gotoInLanguage,
  readNotifications,
  screen,
  signUpThroughApi,
  useSession,
} from "./support/app";
import { chromiumForFile, phoneContext } from "./support/browser";
import { creditedRefill } from "./support/cli";
import { settle } from "./support/fit";

const SHOTS = process.env.E2E_SCREENSHOTS;
const BLOCK = "[data-testid='first-steps']";

let browser: Browser;
chromiumForFile((shared) => {
  browser = shared;
});

/** A phone's page for the investor, in `language`, that records whether the first steps ever showed. */
async function phonePage(
  session: ApiSession,
  language: string,
  options: Parameters<typeof phoneContext>[1] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await phoneContext(browser, options);
  await context.addInitScript((lang) => {
    localStorage.setItem("kassa.language", lang);
    const w = window as unknown as { firstStepsSeen?: boolean };
    w.firstStepsSeen = false;
    new MutationObserver(() => {
      if (document.querySelector("[data-testid='first-steps']")) w.firstStepsSeen = true;
    }).observe(document, { childList: true, subtree: true });
  }, language);
  // biome-ignore lint/correctness/useHookAtTopLevel: the e2e helper, not a React hook.
  await useSession(context, session);
  return { context, page: await context.newPage() };
}

/** The cabinet opened afresh; in `language` (saved as the switcher saves it) when given. */
async function openCabinet(page: Page, language?: string) {
  if (language) await gotoInLanguage(page, "/", language);
  else await page.goto(`${base()}/`);
  try {
    await screen(page, "cabinet");
  } catch (error) {
    console.log(`[newcomer] ${page.url()}: ${(await page.locator("body").innerText()).slice(0, 600)}`);
    throw error;
  }
  await page.locator("[data-testid='stat-active-deposits']").waitFor({ timeout: 20_000 });
}

/** The block's texts that do not show whole: wider than their box, or past the screen's edge. */
function cutInBlock(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const block = document.querySelector(selector);
    if (!block) return ["no block"];
    const cut: string[] = [];
    for (const el of [block, ...block.querySelectorAll<HTMLElement>("*")]) {
      if (el.closest(".visually-hidden, svg")) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0) continue;
      if (el.scrollWidth > el.clientWidth || box.right > window.innerWidth + 0.5 || box.left < -0.5)
        cut.push(`${el.className}: "${(el.textContent ?? "").slice(0, 40)}" ${el.scrollWidth} in ${el.clientWidth}`);
    }
    return cut;
  }, BLOCK);
}

describe("a newcomer's first steps", () => {
  it("step 1 leads to the refill; after a credited refill step 2 opens the deposit sheet; a deposit ends them", async () => {
    const investor = await signUpThroughApi();
    await readNotifications(investor.token);
    const { context, page } = await phonePage(investor, "en");
    try {
      await openCabinet(page);
      const block = page.locator(BLOCK);
      await block.waitFor({ timeout: 10_000 });
      expect(await block.getAttribute("data-step")).toBe("1");
      expect(await page.locator("[data-testid='first-step-refill']").getAttribute("aria-current")).toBe("step");
      expect(await block.locator("button").allInnerTexts()).toEqual(["Refill"]);
      await block.locator("[data-testid='first-steps-action']").click();
      await screen(page, "refill");

      await creditedRefill(investor.token, "150");
      await readNotifications(investor.token);
      await openCabinet(page);
      await block.waitFor({ timeout: 10_000 });
      expect(await block.getAttribute("data-step")).toBe("2");
      expect(await page.locator("[data-testid='first-step-refill']").getAttribute("data-state")).toBe("done");
      expect(await page.locator("[data-testid='first-step-deposit']").getAttribute("aria-current")).toBe("step");
      expect(await block.locator("button").allInnerTexts()).toEqual(["Open a deposit"]);
      await block.locator("[data-testid='first-steps-action']").click();
      await screen(page, "deposits");
      await page.locator("[data-testid='deposit-sheet'] input[name='amount']").waitFor({ timeout: 10_000 });

      await apiCall("createDeposit", {
        body: { planId: "start", currency: "USDT", amount: "100", autoInvest: false },
        token: investor.token,
      });
      await page.evaluate(() => {
        (window as unknown as { firstStepsSeen: boolean }).firstStepsSeen = false;
      });
      await page.goto(`${base()}/`);
      await screen(page, "cabinet");
      await page.locator("[data-testid='active-deposits']").waitFor({ timeout: 20_000 });
      expect(await page.evaluate(() => (window as unknown as { firstStepsSeen: boolean }).firstStepsSeen)).toBe(false);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("never shows to the demo investor, not for a moment while the cabinet loads", async () => {
    const { context, page } = await phonePage(await demoSession(), "en");
    try {
      await openCabinet(page);
      await page.locator("[data-testid='active-deposits']").waitFor({ timeout: 20_000 });
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => (window as unknown as { firstStepsSeen: boolean }).firstStepsSeen)).toBe(false);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("shows its texts whole at 320 px in ru and kk, in both steps", async () => {
    const investor = await signUpThroughApi();
    // One phone; the cabinet opened afresh in it for each language and step.
    const context = await phoneContext(browser, { viewport: { width: 320, height: 640 } });
    await useSession(context, investor);
    const page = await context.newPage();
    try {
      for (const [language, step] of [
        ["ru", "1"],
        ["kk", "1"],
        ["ru", "2"],
        ["kk", "2"],
      ] as const) {
        if (language === "ru" && step === "2") await creditedRefill(investor.token, "150");
        await readNotifications(investor.token);
        await openCabinet(page, language);
        const block = page.locator(BLOCK);
        await block.waitFor({ timeout: 10_000 });
        expect(await block.getAttribute("data-step")).toBe(step);
        await settle(page);
        expect(await cutInBlock(page), `${language}, step ${step}`).toEqual([]);
      }
    } finally {
      await context.close();
    }
  }, 120_000);

  it.runIf(SHOTS)(
    "screenshots: a newcomer's cabinet, 320 × 640 and 390 × 844, ru and de, light and dark",
    async () => {
      const dir = SHOTS as string;
      mkdirSync(dir, { recursive: true });
      const investor = await signUpThroughApi();
      await readNotifications(investor.token);
      for (const [width, height] of [
        [320, 640],
        [390, 844],
      ] as const)
        for (const scheme of ["light", "dark"] as const)
          for (const language of ["ru", "de"] as const) {
            const { context, page } = await phonePage(investor, language, {
              viewport: { width, height },
              colorScheme: scheme,
            });
            try {
              await openCabinet(page);
              await page.locator(BLOCK).waitFor({ timeout: 10_000 });
              await settle(page);
              // The screen as the newcomer scrolls to the steps (a full-page shot paints the tab bar mid-page).
              await page.locator(BLOCK).evaluate((el) => el.scrollIntoView({ block: "center" }));
              await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
              await page.screenshot({ path: join(dir, `newcomer-${language}-${width}-${scheme}.png`) });
            } finally {
              await context.close();
            }
          }
    },
    600_000,
  );
});
