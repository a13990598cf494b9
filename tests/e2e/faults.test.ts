/**
 * Faults said fast (docs/decisions.md#a-bad-connection), in Chromium against the real server, with the faults
 * injected by Playwright's routing: a screen's code that cannot be downloaded (aborted, or offline) and a
 * translation file that never answers (stalled) are said while the download still hangs — with the texts the
 * entry carries — and once the network is back the screen shows by itself, without a tap. A cold start whose
 * texts stall says so too, and so does a chat button's launch whose screen's texts stall (they come with its first
 * calls). Offline is said once: the banner, no second "offline" mark beside it. A browser that
 * refuses the site's storage and cookies (site data blocked) still starts the app, whose launcher then throws at its
 * first read.
 *
 * How fast is the app's own deadline (`LOAD_DEADLINE_MS`, its unit test) plus the machine: the figures are
 * printed here, and not asserted, as a loaded test machine stretches them.
 */
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type ApiSession, base, fill, PASSWORD, screen, signUpThroughApi, submit, useSession } from "./support/app";
import { chromiumForFile, phoneContext } from "./support/browser";
import { text } from "./support/locales";
import { fetchAsBrowser, unlessGone } from "./support/route-fetch";

let browser: Browser;
chromiumForFile((shared) => {
  browser = shared;
});

async function investorContext(investor: ApiSession): Promise<BrowserContext> {
  const context = await phoneContext(browser);
  await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
  // biome-ignore lint/correctness/useHookAtTopLevel: the e2e helper, not a React hook.
  await useSession(context, investor);
  return context;
}

async function openCabinet(investor: ApiSession): Promise<Page> {
  const page = await (await investorContext(investor)).newPage();
  await page.goto(`${base()}/`);
  await screen(page, "cabinet");
  await page.locator("[data-testid='balance']").first().waitFor();
  return page;
}

type Fault = "abort" | "stall";

/**
 * Breaks every script whose body contains `marker` (chunk and locale files have hashed names): aborted as a
 * lost connection, or held unanswered. `heal()` ends the fault: held requests are answered, later ones pass.
 */
async function breakFilesContaining(target: Page | BrowserContext, marker: string, fault: Fault) {
  const pattern = "**/assets/*.js";
  let healed = false;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hits: number[] = [];
  // The test ended (its page or context closed) while a file was in flight: nothing is left to answer.
  const handler = async (route: Route) => {
    const response = await fetchAsBrowser(route);
    if (!response) return;
    const body = await response.text().catch(unlessGone);
    if (typeof body !== "string") return;
    if (healed || !body.includes(marker)) return await route.fulfill({ response, body }).catch(unlessGone);
    hits.push(Date.now());
    if (fault === "abort") return await route.abort("internetdisconnected").catch(unlessGone);
    await released;
    return await route.fulfill({ response, body }).catch(unlessGone);
  };
  await target.route(pattern, handler);
  return {
    hits,
    healed: () => healed,
    heal: () => {
      healed = true;
      release();
    },
  };
}

/**
 * The fault's answer: the error screen with the entry's texts, visible. With `held`, once the held file has been
 * asked for: on a busy machine a download of the screen's code can outlast the app's deadline first, and its own
 * error screen is no answer to the fault.
 */
async function answerAfterTap(page: Page, tap: () => Promise<void>, held?: { hits: number[] }): Promise<number> {
  const tapped = Date.now();
  await tap();
  if (held) await expect.poll(() => held.hits.length, { timeout: 30_000 }).toBeGreaterThan(0);
  await page.locator("[data-screen='error']").first().waitFor({ state: "visible", timeout: 15_000 });
  return Date.now() - tapped;
}

async function expectLoadFailureSaid(page: Page) {
  const shown = await page.locator("[data-screen='error']").first().innerText();
  expect(shown).toContain(text("en", "common", "loadFailed"));
  expect(shown).toContain(text("en", "common", "retry"));
}

describe("faults said fast", () => {
  it("an aborted screen chunk is said; once it downloads again the screen shows without a tap", async () => {
    const page = await openCabinet(await signUpThroughApi());
    const fault = await breakFilesContaining(page, "WithdrawalRoute", "abort");
    const answeredIn = await answerAfterTap(page, () => page.locator("[data-testid='tab-withdrawal']").click());
    console.log(`[kassa] aborted screen chunk: answer ${answeredIn} ms after the tap`);
    expect(fault.hits.length).toBeGreaterThan(0);
    await expectLoadFailureSaid(page);
    expect(await page.locator(".tab-bar").count()).toBe(1);
    fault.heal();
    // No tap: the background retry brings the screen.
    await screen(page, "withdrawal", 15_000);
    expect(await page.locator("[data-screen='error']").count()).toBe(0);
    await page.context().close();
  });

  it("a stalled translation file is said while it hangs; answered at last, the screen shows without a tap", async () => {
    const page = await openCabinet(await signUpThroughApi());
    await page.locator("[data-testid='tab-more']").click();
    await screen(page, "more");
    const fault = await breakFilesContaining(page, text("en", "partners", "link.note"), "stall");
    const tapped = Date.now();
    const answeredIn = await answerAfterTap(page, () => page.locator("a[href='/partners']").first().click(), fault);
    const stalledFor = Date.now() - (fault.hits[0] ?? tapped);
    console.log(
      `[kassa] stalled translation file: answer ${answeredIn} ms after the tap, ${stalledFor} ms after the stalled request`,
    );
    expect(fault.hits.length).toBeGreaterThan(0);
    // Said while the translation file is still held unanswered: the screen did not wait for it.
    expect(fault.healed()).toBe(false);
    await expectLoadFailureSaid(page);
    fault.heal();
    await screen(page, "partners", 15_000);
    await page
      .getByText(text("en", "partners", "link.header"))
      .first()
      .waitFor();
    expect(await page.locator("[data-screen='error']").count()).toBe(0);
    await page.context().close();
  });

  it("offline: said once, a tap on a screen not yet downloaded is answered, and back online it shows by itself", async () => {
    const page = await openCabinet(await signUpThroughApi());
    await page.context().setOffline(true);
    const banner = page.locator("[data-testid='offline-banner']");
    await banner.waitFor();
    expect(await banner.innerText()).toBe(text("en", "common", "offline"));
    // A refresh that fails offline does not add a second "offline" beside the banner.
    await page.locator("[data-testid='refresh-control']").click();
    await page.waitForTimeout(1_500);
    expect(await page.locator("[data-testid='offline-banner'], [data-testid='stale']").count()).toBe(1);

    const answeredIn = await answerAfterTap(page, () => page.locator("[data-testid='tab-deposits']").click());
    console.log(`[kassa] offline tap on a screen not downloaded: answer ${answeredIn} ms after the tap`);
    await expectLoadFailureSaid(page);
    expect(await page.locator("[data-testid='offline-banner'], [data-testid='stale']").count()).toBe(1);

    await page.context().setOffline(false);
    await screen(page, "deposits", 15_000);
    await banner.waitFor({ state: "detached" });
    expect(await page.locator("[data-screen='error']").count()).toBe(0);
    await page.context().close();
  });

  it("offline: a dialog whose code was downloaded ahead opens on a tap, its files asked for once", async () => {
    const page = await openCabinet(await signUpThroughApi());
    // The build lists the exchange dialog's files; the cabinet asks for them ahead at low priority, without running
    // them (lib/warm-up.ts through lib/preload-file.ts), and they must have come before the network goes.
    const files: string[] = await page.evaluate(() => {
      const list = JSON.parse(document.getElementById("kassa-later-code")?.textContent ?? "{}");
      return [...(list.exchange?.code ?? []), ...(list.exchange?.css ?? [])];
    });
    expect(files.length).toBeGreaterThan(0);
    const downloaded = () =>
      page.evaluate(
        (wanted) =>
          wanted.filter((file) =>
            performance
              .getEntriesByType("resource")
              .some((entry) => entry.name.endsWith(`/${file}`) && (entry as PerformanceResourceTiming).responseEnd > 0),
          ).length,
        files,
      );
    await expect.poll(downloaded, { timeout: 30_000 }).toBe(files.length);
    const links = await page.evaluate(
      (wanted) => wanted.map((file) => document.querySelectorAll(`link[href="/${file}"]`).length),
      files,
    );
    expect(links).toEqual(files.map(() => 1));
    await page.context().setOffline(true);
    await page.locator("[data-testid='offline-banner']").waitFor();
    await page.locator("[data-testid='open-exchange']").first().click();
    await page.locator("[data-testid='exchange-dialog']").waitFor({ timeout: 15_000 });
    // Opened from what was downloaded: no download fault said anywhere on the page.
    expect(await page.locator("[data-screen='error']").count()).toBe(0);
    expect(await page.locator("body").innerText()).not.toContain(text("en", "common", "loadFailed"));
    await page.context().close();
  });

  it("a cold start whose texts stall shows the fault while they hang, and the cabinet once they come", async () => {
    const context = await investorContext(await signUpThroughApi());
    const fault = await breakFilesContaining(context, text("en", "common", "tagline"), "stall");
    const page = await context.newPage();
    await page.goto(`${base()}/`, { waitUntil: "commit" });
    const started = Date.now();
    await expect.poll(() => fault.hits.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.locator("[data-screen='error']").first().waitFor({ state: "visible", timeout: 15_000 });
    const shownAfter = Date.now() - started;
    const stalledFor = Date.now() - (fault.hits[0] ?? started);
    console.log(
      `[kassa] cold start, stalled texts: the fault shown ${shownAfter} ms after the page arrived, ${stalledFor} ms after the stalled request`,
    );
    expect(fault.hits.length).toBeGreaterThan(0);
    expect(fault.healed()).toBe(false);
    await expectLoadFailureSaid(page);
    fault.heal();
    await screen(page, "cabinet", 15_000);
    expect(await page.locator("[data-screen='error']").count()).toBe(0);
    await context.close();
  });
  it("a chat button's cold start whose screen's texts stall shows the fault while they hang, and the screen once they come", async () => {
    // `startapp=settings` opens Settings: its texts are asked for with the launch's first calls, and the first render
    // waits for them at most until the app's load deadline.
    const context = await investorContext(await signUpThroughApi());
    const fault = await breakFilesContaining(context, text("en", "settings", "profile.confirmPhone"), "stall");
    const page = await context.newPage();
    await page.goto(`${base()}/settings`, { waitUntil: "commit" });
    await expect.poll(() => fault.hits.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.locator("[data-screen='error']").first().waitFor({ state: "visible", timeout: 15_000 });
    expect(fault.healed()).toBe(false);
    await expectLoadFailureSaid(page);
    fault.heal();
    await screen(page, "settings", 15_000);
    expect(await page.locator("[data-screen='error']").count()).toBe(0);
    await context.close();
  });
});

describe("a browser that refuses the site's storage and cookies", () => {
  it("starts the app (the launcher's first read throws), signs in and shows the cabinet, without an error", async () => {
    const investor = await signUpThroughApi();
    const context = await phoneContext(browser);
    // As Chromium answers a page's script with site data blocked: reading localStorage or sessionStorage throws, and
    // document.cookie reads empty and keeps nothing written to it.
    await context.addInitScript(() => {
      for (const name of ["localStorage", "sessionStorage"])
        Object.defineProperty(window, name, {
          get: () => {
            throw new DOMException("Access is denied for this document.", "SecurityError");
          },
        });
      Object.defineProperty(Document.prototype, "cookie", { get: () => "", set: () => undefined });
    });
    const page = await context.newPage();
    const thrown: string[] = [];
    page.on("pageerror", (error) => thrown.push(error.message));
    await page.goto(`${base()}/login`);
    await screen(page, "login");
    await fill(page, "login", investor.login);
    await fill(page, "password", PASSWORD);
    await submit(page);
    await screen(page, "cabinet");
    await page.locator("[data-testid='balance']").first().waitFor();
    expect(await page.evaluate(() => typeof window.localStorage).catch((error: Error) => error.message)).toMatch(
      /Access is denied/,
    );
    expect(await page.evaluate(() => document.cookie)).toBe("");
    expect(thrown).toEqual([]);
    await context.close();
  });
});
