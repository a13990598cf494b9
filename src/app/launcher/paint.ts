// What the launcher paints before the app's code has run (docs/architecture.md#how-a-launch-flows): the cabinet's
// first screen as the server renders it from the app's components with the investor's own data (`GET
// /app/first-screen`, `first-screen.tsx`), whose reply answers the launch's calls too, and the login's brand
// header, which the build rendered from them into the page's end.
import { resolveApiBaseUrl } from "@/config/env";
import { LAUNCH, paintTemplate } from "./build-time";
import { type Look, tellReady } from "./telegram";

const { firstScreen } = LAUNCH;
/** The longest the entry waits for the painted block. */
export const PAINT_DEADLINE_MS = 1000;
/** Settles once the page has been read: the painted blocks' templates are at its end. */
const parsed = new Promise((done) => {
  if (document.readyState !== "loading") done(null);
  else document.addEventListener("DOMContentLoaded", done, { once: true });
});

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
  const markup = reply.then((body) => (typeof body.markup === "string" ? body.markup : null));
  // Its headline, or another screen (maintenance, the phone's confirmation).
  const appShows = (root: Element) =>
    root.querySelector("[data-testid='overview-total'], [data-screen]:not([data-screen='cabinet'])") !== null;
  // Inside Telegram the client's placeholder covers the page until it is told the app is ready.
  return paint(markup, "cabinet-css", appShows, look ? tellReady : undefined);
}

/**
 * The login's first render down to its brand header, rendered by the build from the app's components in each
 * language and look (`first-screen.tsx`), kept over the app's first renders until a screen of the app shows.
 */
export function paintLoginEarly(lng: string): Promise<void> {
  const appearance = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  const appShows = (root: Element) => root.querySelector("[data-screen]") !== null;
  return paint(
    parsed.then(() => paintTemplate(`login-${lng}-${appearance}`)),
    "login-css",
    appShows,
  );
}

/**
 * Paints `markup`, with the stylesheets' rules for what it wears (the page's template `style`), in the boot
 * spinner's place once it has come and the page has been read, then runs `painted` once it is on screen. The app's
 * first render empties `#root`; until the app shows what the block stands for (`appShows(root)`), the block stays
 * where it was, over the app (fixed, out of the flow, nothing to click), then goes; at most 10 s. Settles once
 * painted, or it will not be (at most PAINT_DEADLINE_MS): the entry is inserted then.
 */
function paint(
  markup: Promise<string | null>,
  style: string,
  appShows: (root: Element) => boolean,
  painted?: () => void,
): Promise<void> {
  return new Promise((settled) => {
    setTimeout(settled, PAINT_DEADLINE_MS);
    void Promise.all([markup.catch(() => null), parsed]).then(([html]) => {
      const boot = document.querySelector("#root > [data-testid='boot']");
      const root = boot?.parentElement;
      const holder = document.createElement("template");
      holder.innerHTML = html ?? "";
      const block = holder.content.firstElementChild;
      const rules = paintTemplate(style);
      if (root && rules && block instanceof HTMLElement) {
        block.insertAdjacentHTML("afterbegin", rules);
        boot.replaceWith(block);
        keepOver(root, block, appShows);
        if (painted) afterPaint(painted);
      }
      afterPaint(settled);
    });
  });
}

/** `then` once what was just put on the page has been painted: the next frame's callbacks run after this one's paint. */
function afterPaint(then: () => void): void {
  requestAnimationFrame(() => requestAnimationFrame(() => then()));
}

/** Keeps `block`, painted in `root`, over the app once the app's render has taken it out, until `appShows(root)`. */
function keepOver(root: Element, block: HTMLElement, appShows: (root: Element) => boolean): void {
  const started = performance.now();
  let overlay: HTMLElement | null = null;
  const check = () => {
    if (block.parentElement === root) return;
    if (appShows(root) || performance.now() - started > 10_000) {
      observer.disconnect();
      overlay?.remove();
      block.remove();
    } else if (!overlay) {
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
