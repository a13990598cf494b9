// What the launcher paints before the app's code has run (docs/architecture.md#how-a-launch-flows): the cabinet's
// first screen as the server renders it from the app's components with the investor's own data (`GET
// /app/first-screen`, `first-screen.tsx`), whose reply answers the launch's calls too, and the login's brand
// header, which the build rendered from them into the page's end.
import type { FirstScreenReply } from "@contract/first-screen";
import { resolveApiBaseUrl } from "@/config/env";
import { mediaMatches, systemAppearance, WIDE_LAYOUT_QUERY } from "@/config/media";
import { LAUNCH, paintTemplate } from "./build-time";
import { tellReady } from "./telegram";

const { firstScreen } = LAUNCH;
/** The longest the entry waits for the painted block. */
export const PAINT_DEADLINE_MS = 1000;
/** Settles once the page has been read: the painted blocks' templates are at its end, and the entry goes in then. */
export const parsed = new Promise((done) => {
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
export function paintCabinet(token: string, lng: string, look: Record<string, string> | null): Promise<void> | null {
  const query = new URLSearchParams({ language: lng, ...(look ?? { appearance: systemAppearance() }) });
  const at = performance.now();
  const reply: Promise<FirstScreenReply> = fetch(`${resolveApiBaseUrl()}${firstScreen.url}?${query}`, {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
    credentials: "same-origin",
  }).then((response) => (response.status === 200 ? response.json() : Promise.reject(new Error(`${response.status}`))));
  reply.catch(() => undefined);
  // The API client takes the replies it carries as its calls' (`lib/early-replies.ts`).
  window.__kassaFirstScreen = { ...firstScreen, token, at, reply };
  if (mediaMatches(WIDE_LAYOUT_QUERY)) return null;
  // A page's first number format loads the browser's locale data (at the phone's 4× slower CPU one of the launch's
  // longest tasks): done now, while the screen is on its way, not in the app's first render.
  setTimeout(() => new Intl.NumberFormat(lng).format(0));
  const markup = reply.then((body) => body.markup);
  // Inside Telegram the client's placeholder covers the page until it is told the app is ready.
  return paint(markup, "cabinet", look ? tellReady : undefined);
}

/**
 * The login's first render down to its brand header, rendered by the build from the app's components in each
 * language and look (`first-screen.tsx`), kept over the app's first renders until a screen of the app shows.
 */
export function paintLoginEarly(lng: string): Promise<void> {
  const id = `login-${lng}-${systemAppearance()}`;
  const markup = parsed.then(() => paintTemplate(id));
  return paint(markup, "login");
}

/**
 * Paints `markup`, with the stylesheets' rules for what it wears (the page's template `<kind>-css`), in the boot
 * spinner's place once it has come and the page has been read, marked as the `kind` of block it is: the app keeps it
 * over its first renders until it shows what the block stands for (`app/painted-cover.ts`). Then runs `painted` once
 * it is on screen. Settles once painted, or it will not be (at most PAINT_DEADLINE_MS): the entry is inserted then.
 */
function paint(markup: Promise<string | null>, kind: "cabinet" | "login", painted?: () => void): Promise<void> {
  return new Promise((settled) => {
    setTimeout(settled, PAINT_DEADLINE_MS);
    void Promise.all([markup.catch(() => null), parsed]).then(([html]) => {
      const boot = document.querySelector("#root > [data-testid='boot']");
      const holder = document.createElement("template");
      holder.innerHTML = html ?? "";
      const block = holder.content.firstElementChild;
      const rules = paintTemplate(`${kind}-css`);
      if (boot && rules && block instanceof HTMLElement) {
        block.dataset.kassaPainted = kind;
        block.insertAdjacentHTML("afterbegin", rules);
        boot.replaceWith(block);
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
