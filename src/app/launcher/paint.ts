// What the launcher paints before the app's code has run (docs/architecture.md#how-a-launch-flows): the cabinet's
// first screen as the server renders it from the app's components with the investor's own data (`GET
// /app/first-screen`, `first-screen.tsx`), whose reply answers the launch's calls too, and the login's brand
// header, which the build rendered from them into the page's end.
import { resolveApiBaseUrl } from "@/config/env";
import { LAUNCH, paintTemplate } from "./build-time";
import { PAINTED_ATTRIBUTES } from "./painted-attributes";
import { type Look, tellReady } from "./telegram";

const { paint: PAINT, firstScreen } = LAUNCH;
/** The longest the entry waits for the painted block. */
export const PAINT_DEADLINE_MS = 1000;

/**
 * Asks for the cabinet's first screen with the kept token (inside Telegram in the client's `look`, its safe areas
 * the page's, `tma/safe-areas.ts`) and hands the replies it carries to the API client as its calls' (a failed one:
 * the app makes the call itself). On a phone's width it paints the screen once the page has been read, unless the
 * server has none to give (the app will show another screen first, or the call failed). Null when it will not
 * paint; else a promise settled once it has painted, or will not (the entry is inserted then).
 */
export function paintCabinet(token: string, lng: string, look: Look | null): Promise<void> | null {
  const query = new URLSearchParams(
    look
      ? { language: lng, platform: look.platform, telegram: look.client, theme: look.theme }
      : {
          language: lng,
          platform: "base",
          appearance: matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light",
        },
  );
  const base = resolveApiBaseUrl();
  const at = performance.now();
  const reply: Promise<{ markup: unknown; replies: { url: string; status: number; body: unknown }[] }> = fetch(
    `${base}${firstScreen.url}?${query}`,
    { headers: { Accept: "application/json", Authorization: `Bearer ${token}` }, credentials: "same-origin" },
  ).then((response) => (response.status === 200 ? response.json() : Promise.reject(new Error(`${response.status}`))));
  reply.catch(() => undefined);
  window.__kassaEarlyReplies ??= [];
  for (const url of firstScreen.carries) {
    const carried = reply.then(({ replies }) => {
      const one = replies.find((carried) => carried.url === url);
      if (!one) throw new Error(url);
      const headers = { "content-type": "application/json" };
      return new Response(JSON.stringify(one.body), { status: one.status, headers });
    });
    const bearer = firstScreen.tokenless.includes(url) ? null : token;
    window.__kassaEarlyReplies.push({ url: `${base}${url}`, token: bearer, at, reply: carried });
  }
  if (matchMedia("(min-width: 960px)").matches) return null;
  // A page's first number format loads the browser's locale data (at the phone's 4× slower CPU one of the launch's
  // longest tasks): done now, while the screen is on its way, not in the app's first render.
  setTimeout(() => new Intl.NumberFormat(lng).format(0));
  let shown: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    shown = () => afterPaint(resolve);
    setTimeout(resolve, PAINT_DEADLINE_MS);
  });
  const markup = reply.then(
    (body) => (typeof body.markup === "string" ? body.markup : null),
    () => null,
  );
  Promise.all([markup, new Promise<void>((parsed) => afterParse(parsed))]).then(
    ([markup]) => {
      const boot = document.querySelector("#root > [data-testid='boot']");
      const style = paintTemplate("cabinet-css");
      const holder = document.createElement("template");
      holder.innerHTML = markup ?? "";
      const block = holder.content.firstElementChild;
      if (!boot?.parentElement || !style || !(block instanceof HTMLElement)) return shown();
      // The stylesheets' rules for what it wears go with it.
      block.prepend(style);
      keepUntilTheApp(boot.parentElement, boot, block, (root) => {
        const screen = root.querySelector<HTMLElement>("[data-screen]");
        return (
          root.querySelector("[data-testid='overview-total']") !== null ||
          (!!screen && screen.dataset.screen !== "cabinet")
        );
      });
      // Inside Telegram the client's placeholder covers the page until it is told the app is ready.
      if (look) afterPaint(tellReady);
      shown();
    },
    () => shown(),
  );
  return settled;
}

/**
 * The login's first render down to its brand header, rendered by the build from the app's components in each
 * language (`first-screen.tsx`), painted once the page has been read and kept over the app's first renders until a
 * screen of the app shows. Settles once painted (or it will not be): the entry is inserted then.
 */
export function paintLoginEarly(lng: string): Promise<void> {
  return new Promise((resolve) => {
    afterParse(() => {
      try {
        const boot = document.querySelector("#root > [data-testid='boot']");
        const block = loginBlock(lng);
        if (boot?.parentElement && block)
          keepUntilTheApp(boot.parentElement, boot, block, (root) => !!root.querySelector("[data-screen]"));
      } finally {
        afterPaint(resolve);
        setTimeout(resolve, PAINT_DEADLINE_MS);
      }
    });
  });
}

/** `then` once the page has been read (its painted blocks' templates are at its end). */
function afterParse(then: () => void): void {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => then(), { once: true });
  else then();
}

/** The login's template as a block of the page, in the device's look. Null when the page has none for the language. */
function loginBlock(lng: string): HTMLElement | null {
  const block = paintTemplate(`login-${lng}`);
  const style = paintTemplate("login-css");
  if (!(block instanceof HTMLElement) || !style) return null;
  if (matchMedia("(prefers-color-scheme: dark)").matches) darken(block);
  block.prepend(style);
  return block;
}

/** The dark look on a block the build rendered in the light one. */
function darken(block: HTMLElement): void {
  block.classList.add(...PAINT.classes.dark.split(" "));
  block.setAttribute(PAINTED_ATTRIBUTES.appearance, "dark");
}

/** `then` once what was just put on the page has been painted: the next frame's callbacks run after this one's paint. */
function afterPaint(then: () => void): void {
  requestAnimationFrame(() => requestAnimationFrame(() => then()));
}

/**
 * Puts `block` in the place of the boot screen. The app's first render empties `#root`; until the app shows what
 * the block stands for (`appShows(root)`), the block stays where it was, over the app (fixed, out of the flow,
 * nothing to click), then goes; at most 10 s.
 */
function keepUntilTheApp(root: Element, boot: Element, block: HTMLElement, appShows: (root: Element) => boolean): void {
  boot.replaceWith(block);
  const started = performance.now();
  let overlay: HTMLElement | null = null;
  const done = () => {
    observer.disconnect();
    overlay?.remove();
    block.remove();
  };
  const check = () => {
    if (block.parentElement === root) return;
    if (appShows(root) || performance.now() - started > 10_000) return done();
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.setAttribute("aria-hidden", "true");
      overlay.style.cssText = "position: fixed; inset: 0; z-index: 2147483647; overflow: hidden; pointer-events: none";
      overlay.append(block);
      document.body.append(overlay);
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(root, { childList: true, subtree: true });
  setTimeout(check, 10_000);
}
