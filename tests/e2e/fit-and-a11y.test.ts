/**
 * Every screen fits every phone in every language, and passes axe-core. One browser context per
 * width walks the public screens, then signs in as the demo investor (who has a refill, deposits, an
 * exchange, a downline and a wallet) and walks the cabinet in en, ru, de and kk — the language switched
 * in place, without signing in again, the screens reached through in-app navigation — and then, in
 * German, a withdrawal awaiting its code (the history's date filters, the code step with the address).
 * A screen fails when the page is wider than the window (`scrollWidth > innerWidth`). At 390 px in English, axe-core
 * checks every screen in the light and in the dark scheme: no serious or critical violation (colour
 * contrast included, AA: 4.5:1 for text).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, readNotifications, screen } from "./support/app";
import { launchChromium, phoneContext } from "./support/browser";
import { LANGUAGES, type Lng } from "./support/locales";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const PUBLIC: [path: string, screen: string][] = [
  ["/login", "login"],
  ["/register/demo", "register"],
  ["/forgot-password", "forgot-password"],
  ["/terms/offer", "terms"],
];
const CABINET: [path: string, screen: string][] = [
  ["/", "cabinet"],
  ["/refill", "refill"],
  ["/deposits", "deposits"],
  ["/partners", "partners"],
  ["/withdrawal", "withdrawal"],
  ["/operations", "operations"],
  ["/settings", "settings"],
  ["/news", "news"],
  ["/more", "more"],
];

/** Walked after the cabinet, in German: a withdrawal awaiting its code in the history, then its code step. */
const WITHDRAWAL_STEPS = ["withdrawal history", "withdrawal code step"] as const;

/** In-app navigation, as a tap on a link does: the router follows the history, nothing reloads. */
async function go(page: Page, path: string, name: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, "", p);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
  await screen(page, name);
  await settle(page);
}

/**
 * Waits until no skeleton or spinner shows (lists loaded), then a frame for layout. A progress bar
 * with a value is content (a deposit's term, a partner's goal), not loading: it stays on screen.
 */
async function settle(page: Page) {
  await page.waitForFunction(
    () => !document.querySelector(".tgui-skeleton, [role='progressbar']:not([aria-valuenow]), .content-spinner"),
    null,
    { timeout: 20_000 },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const doc = document.documentElement.scrollWidth;
    if (doc <= width) return null;
    // Name the widest elements, to say what to fix.
    const wide = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .slice(-3)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80));
    return `${doc} > ${width} (${wide.join(", ")})`;
  });
}

/**
 * Texts cut by an ellipsis or by their box where the whole text must show: the tab bar's labels, the
 * cabinet's and partners' figures, the amounts of every list row.
 */
async function clipped(page: Page) {
  return page.evaluate(() => {
    // A label cut by its ellipsis: its glyphs are wider than its box.
    const labels = [...document.querySelectorAll<HTMLElement>(".tab-bar-item > :last-child")].filter((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect().width > el.getBoundingClientRect().width + 0.5;
    });
    // A figure spilling out of its tile or row (under the next tile, or off the screen's edge).
    const tiles = [
      ...document.querySelectorAll<HTMLElement>(
        ".stats-bar > div, .money-row, .money-row-head, .money-row-head > :first-child",
      ),
    ].filter((el) => el.scrollWidth > el.clientWidth + 0.5);
    return [...labels, ...tiles].map((el) => `"${el.textContent}"`);
  });
}

/** Switches the language as the switcher saves it, and opens `path` afresh (the session stays). */
async function setLanguage(page: Page, lng: Lng, path: string) {
  await page.evaluate((l) => localStorage.setItem("kassa.language", l), lng);
  await page.goto(`${base()}${path}`);
}

async function signInAsDemo(context: BrowserContext) {
  const res = await fetch(`${base()}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: "demo", password: "demo2026pass" }),
  });
  if (!res.ok) throw new Error(`demo sign-in answered ${res.status}`);
  const { refreshToken, user } = (await res.json()) as { refreshToken: string; user: unknown };
  await readNotifications(refreshToken);
  await context.addCookies([{ name: "kassa_token", value: refreshToken, url: base() }]);
  return { user, token: refreshToken };
}

async function postAs(token: string, path: string, body?: unknown) {
  const res = await fetch(`${base()}/api${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { withdrawal?: { id: string } };
}

async function axeViolations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`.slice(0, 400));
}

/** Walks the public screens, then the cabinet as the demo investor, in each language; `check` runs on each. */
async function walk(
  page: Page,
  context: BrowserContext,
  languages: readonly Lng[],
  check: (lng: Lng, name: string) => Promise<void>,
) {
  await page.goto(`${base()}/login`);
  await screen(page, "login");
  for (const lng of languages) {
    await setLanguage(page, lng, "/login");
    await screen(page, "login");
    for (const [path, name] of PUBLIC) {
      await go(page, path, name);
      await check(lng, name);
    }
  }
  const { user, token } = await signInAsDemo(context);
  await page.evaluate((u) => localStorage.setItem("kassa.user", JSON.stringify(u)), user);
  for (const lng of languages) {
    await setLanguage(page, lng, "/");
    await screen(page, "cabinet");
    for (const [path, name] of CABINET) {
      await go(page, path, name);
      await check(lng, name);
    }
  }
  // A withdrawal awaiting its code: the history shows its filters (dates) and the row, and the code
  // step shows the whole address in a sentence; both in German, the longest texts. Cancelled after,
  // so the demo's balance is as it was.
  const requested = await postAs(token, "/funds/payments/request", { paymentSystemId: "usdt-trc20", amount: "20" });
  try {
    await setLanguage(page, "de", "/withdrawal");
    await screen(page, "withdrawal");
    await settle(page);
    await check("de", WITHDRAWAL_STEPS[0]);
    await page.locator("[data-testid='resume-withdrawal']").first().click();
    await page.locator("form[data-step='code']").waitFor();
    await settle(page);
    await check("de", WITHDRAWAL_STEPS[1]);
  } finally {
    if (requested.withdrawal) await postAs(token, `/funds/payments/${requested.withdrawal.id}/cancel`);
  }
}

// A walk takes a minute or two alone, several on a machine busy with other test runs.
const WALK_TIMEOUT = 600_000;

describe("every screen fits the phone", () => {
  for (const width of [320, 390]) {
    it(
      `no screen is wider than ${width} px in en, ru, de or kk, and no tab label or figure is cut`,
      async () => {
        const context = await phoneContext(browser, { viewport: { width, height: 800 } });
        const page = await context.newPage();
        const problems: string[] = [];
        await walk(page, context, LANGUAGES, async (lng, name) => {
          const wide = await overflow(page);
          if (wide) problems.push(`${lng} ${name}: ${wide}`);
          const cut = await clipped(page);
          if (cut.length > 0) problems.push(`${lng} ${name}: cut ${cut.join(", ")}`);
        });
        await context.close();
        expect(problems).toEqual([]);
      },
      WALK_TIMEOUT,
    );
  }
});

describe("accessibility", () => {
  it(
    "axe-core finds no serious or critical violation on any screen, light and dark (390 px, English)",
    async () => {
      const context = await phoneContext(browser, { colorScheme: "light" });
      const page = await context.newPage();
      const violations: string[] = [];
      let screens = 0;
      await walk(page, context, ["en"], async (_lng, name) => {
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.locator(`[data-appearance='${scheme}']`).first().waitFor();
          screens += 1;
          for (const v of await axeViolations(page)) violations.push(`${name} ${scheme}: ${v}`);
        }
        await page.emulateMedia({ colorScheme: "light" });
      });
      await context.close();
      expect(screens).toBe((PUBLIC.length + CABINET.length + WITHDRAWAL_STEPS.length) * 2);
      expect(violations).toEqual([]);
    },
    WALK_TIMEOUT,
  );
});
