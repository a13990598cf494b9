/**
 * What the early-balance tests (web and Telegram) watch: the launcher's painted figure and the app's first figure
 * as they appear, the layout shifts and CSP violations, and requests held back until the test lets them go.
 */
import type { BrowserContext, Frame, Page, Route } from "playwright-core";
import { expect } from "vitest";

/** The entry chunk and every stylesheet: the painted block brings the rules it needs. */
export const CODE_AND_STYLES = /\/assets\/(index-[^/]+\.js|[^/]+\.css)$/;
/** The calls of the parts that come after the headline (the overview is the headline's own). */
export const LATER_PARTS = /\/api\/user\/income/;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  text: string;
}

export interface Seen {
  /** The painted headline figure when it first showed: whether the entry had run, how it was hidden and dressed. */
  painted?: Box & {
    appStarted: boolean;
    ariaHidden: string | null;
    background: string;
    platform: string | null;
    /** The painted Refill button's fill. */
    refill: string;
    /** When it showed (`performance.now()`). */
    at: number;
  };
  /** The app's own headline figure when it first showed a digit. */
  app?: Box;
  /** When the app's own cabinet (its Refill button) first showed: whether its figure was on it already. */
  frame?: { figure: boolean };
  /** When the painted figure left the page: whether the app's own figure was on it by then. */
  paintedGone?: { appShown: boolean };
  shifts: number[];
  violations: string[];
}

/** Records in every frame of `context`, as it happens, what `Seen` says (read with `seen`). */
export async function recordFigures(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: Seen = { shifts: [], violations: [] };
    (window as unknown as { __seen: Seen }).__seen = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        if (!entry.hadRecentInput) seen.shifts.push(entry.value);
    }).observe({ type: "layout-shift", buffered: true });
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    );
    const box = (element: Element): Box => {
      const rect = element.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height, text: element.textContent ?? "" };
    };
    new MutationObserver(() => {
      const painted = document.querySelector("#root [data-testid='overview-total-painted']");
      if (painted && !seen.painted) {
        const root = painted.closest("[data-testid='painted-cabinet']");
        seen.painted = {
          ...box(painted),
          appStarted: (window as unknown as { __kassaStarted?: boolean }).__kassaStarted === true,
          ariaHidden: painted.closest("[aria-hidden]")?.getAttribute("aria-hidden") ?? null,
          background: root ? getComputedStyle(root).backgroundColor : "",
          platform: root?.getAttribute("data-platform") ?? null,
          refill: (() => {
            const refill = root?.querySelector("[data-testid='open-refill-painted']");
            return refill ? getComputedStyle(refill).backgroundColor : "";
          })(),
          at: performance.now(),
        };
      }
      const app = document.querySelector("#root [data-testid='overview-total']");
      if (app && !seen.app && /\d/.test(app.textContent ?? "")) seen.app = box(app);
      if (!seen.frame && document.querySelector("#root [data-testid='open-refill']"))
        seen.frame = { figure: seen.app !== undefined };
      // Gone at the next frame (a block moved within one round of observers never left the screen).
      const gone = () => !document.querySelector("[data-testid='overview-total-painted']");
      if (seen.painted && !seen.paintedGone && gone())
        requestAnimationFrame(() => {
          if (!seen.paintedGone && gone()) seen.paintedGone = { appShown: seen.app !== undefined };
        });
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

export const seen = (target: Page | Frame) => target.evaluate(() => (window as unknown as { __seen: Seen }).__seen);

/**
 * Waits until the first screen's call the launcher sent has been answered, then three frames: where the launcher
 * paints, it has by then. The statuses of the launch's calls its reply answers (none where it sent no call).
 */
export const earlyRepliesRead = (target: Page | Frame) =>
  target.evaluate(async () => {
    const first = window.__kassaFirstScreen;
    const read = first ? await first.reply.then(({ replies }) => replies.map((reply) => reply.status)) : [];
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done))));
    return read;
  });

/**
 * Holds requests matching `pattern` until `release()`; `then` passes them on (by default to the network; a proxy
 * registered before takes `route.fallback()`).
 */
export async function hold(
  context: BrowserContext,
  pattern: RegExp,
  then: (route: Route) => Promise<void> = (route) => route.continue(),
): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await context.route(pattern, async (route) => {
    await released;
    await then(route).catch(() => undefined);
  });
  return release;
}

/**
 * The launcher's takeover, once the painted figure is in `target` with the entry and stylesheets held (`release` lets
 * them go): the app's figure comes in the painted one's place, the same text with a digit, in the same box (±1 px),
 * the same pixels (of `page`, where `target` is a frame at `offset` in it), Refill in the app's fill, the layout still;
 * the painted block was drawn before the entry ran, hidden from screen readers, and is gone. Gives what was seen
 * after the app's figure, for the caller's own checks; `label` starts the line it prints.
 */
export async function expectTakeover(
  page: Page,
  target: Page | Frame,
  release: () => void,
  label: string,
  offset = { x: 0, y: 0 },
): Promise<Seen> {
  await target.locator("#root [data-testid='overview-total-painted']").waitFor({ timeout: 15_000 });
  const before = await seen(target);
  const region = before.painted && {
    x: before.painted.x + offset.x,
    y: before.painted.y + offset.y,
    width: before.painted.width,
    height: before.painted.height,
  };
  const shot = () => page.screenshot({ clip: region });
  // The painted figure as it stands: two shots alike in a row (a busy machine may still be drawing the first).
  let paintedPixels = await shot();
  await expect
    .poll(
      async () => {
        const next = await shot();
        const still = Buffer.compare(paintedPixels, next) === 0;
        paintedPixels = next;
        return still;
      },
      { timeout: 15_000, message: "the painted figure kept changing" },
    )
    .toBe(true);
  release();
  await target.locator("[data-testid='overview-total']").waitFor({ timeout: 20_000 });
  // The app's render is the page: the painted copy leaves (and the recorder notes it a frame later).
  await target.locator("[data-testid='painted-cabinet']").waitFor({ state: "detached", timeout: 20_000 });
  await expect.poll(async () => (await seen(target)).paintedGone !== undefined, { timeout: 10_000 }).toBe(true);
  // The app's figure drawn in the painted one's pixels; on a busy machine its frame may come late, so wait for it.
  await expect
    .poll(async () => Buffer.compare(paintedPixels, await shot()), { timeout: 15_000, message: "the figure's pixels" })
    .toBe(0);
  const after = await seen(target);
  const { painted, app } = after;
  console.log(
    `${label}: painted ${JSON.stringify(painted)}, app ${JSON.stringify(app)}, shift ${after.shifts.reduce((a, b) => a + b, 0).toFixed(4)}`,
  );
  // Painted while the app's code was held back: the entry had not run.
  expect(before.painted?.appStarted).toBe(false);
  expect(painted?.ariaHidden).toBe("true");
  // Refill in the app's own fill (on the web the system's accent, inside Telegram the theme's button colour, each
  // moved only where its text would not read on it).
  const appRefill = await target
    .locator("[data-testid='open-refill']")
    .evaluate((button) => getComputedStyle(button).backgroundColor);
  expect(painted?.refill, "Refill's fill").toBe(appRefill);
  expect(painted && app).toBeTruthy();
  if (!painted || !app) return after;
  // The same figure, in the same words, in the same box, pixel for pixel (the parts that would move it are held).
  expect(painted.text).toBe(app.text);
  expect(painted.text).toMatch(/\d/);
  for (const side of ["x", "y", "width", "height"] as const)
    expect(Math.abs(painted[side] - app[side]), side).toBeLessThanOrEqual(1);
  expect(after.shifts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(0.02);
  // The painted figure stayed on screen (over the app's first renders) until the app's own had come.
  expect(after.paintedGone, "the painted figure left before the app's showed").toEqual({ appShown: true });
  return after;
}

/**
 * What `target` (a page, or a cross-site frame in a process of its own) throws from now on, caught or not, as the
 * debugger sees it: a render that suspends throws (a promise, or React's stand-in for one), and React throws that
 * render away and does it again once what it waited for has come.
 */
export async function recordThrows(context: BrowserContext, target: Page | Frame): Promise<string[]> {
  const thrown: string[] = [];
  const cdp = await context.newCDPSession(target);
  cdp.on("Debugger.paused", (event: { data?: { className?: string; description?: string } }) => {
    thrown.push(`${event.data?.className ?? "?"}: ${(event.data?.description ?? "").split("\n")[0]}`);
    void cdp.send("Debugger.resume").catch(() => undefined);
  });
  await cdp.send("Debugger.enable");
  await cdp.send("Debugger.setPauseOnExceptions", { state: "all" });
  return thrown;
}
