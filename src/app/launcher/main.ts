// The launcher (docs/architecture.md#how-a-launch-flows): bundled by the build from the app's own modules and
// written into index.html as a classic inline script at the top of the head (`build/launch-preload.ts`). The moment
// the parser reaches it, it asks the server for the cabinet's first screen and sends the screen's calls with the kept
// token (the API client takes those replies, `lib/early-replies.ts`), asks at once for the app's code and the texts
// of the screen the launch will show, paints what that screen shows first (`paint.ts`) and inserts the app's entry
// chunk (the page has no static entry tag).
// Whatever goes wrong here, the entry is still inserted.
import { resolveApiBaseUrl } from "@/config/env";
import { startLanguage } from "@/config/language";
import { startParamPath } from "@/config/paths";
import { readTokenCookie, USER_STORAGE_KEY } from "@/lib/session-keys";
import { detectTelegramLaunch } from "@/tma/launch";
import { LAUNCH } from "./build-time";
import { PAINT_DEADLINE_MS, paintCabinet, paintLoginEarly } from "./paint";
import { send } from "./send";
import { keptTelegramToken, telegramLook } from "./telegram";

const { files, calls } = LAUNCH;
let announced = false;
/** The preloads asked for, by file (declared before the start below, which asks for them). */
const links = new Map<string, HTMLLinkElement>();
/**
 * Per file asked for: settles once it has come or failed; at once where the browser does not preload modules (then
 * the app's imports ask for them). The screen's last file waits for them.
 */
const came = new Map<string, Promise<void>>();
/**
 * How long the app's code waits for the Telegram client's answer with the kept token (it normally comes at once)
 * before the entry's own script is asked for.
 */
const CODE_WAIT_MS = 100;
/**
 * Settles once the painted block is on screen (or will not be, at most 1 s): the entry is inserted then. Its files
 * are asked for at once; run before the block is painted, its evaluation and first render would hold the main
 * thread that paints it (a cached entry runs the moment it is inserted).
 */
let painted: Promise<unknown> | null = null;

try {
  painted = start();
} catch {
  // No storage, an odd browser: the entry chunk starts everything itself.
} finally {
  if (painted) void painted.then(startEntry);
  else startEntry();
}

function start(): Promise<unknown> | null {
  let painted: Promise<unknown> | null = null;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const saved = localStorage.getItem(USER_STORAGE_KEY) !== null;
  const telegram = detectTelegramLaunch();
  // A launch with a start parameter (a chat button's screen) opens that screen, as the app's start does: a deep link.
  const opens = telegram?.fresh ? startParamPath(telegram.startParam) : undefined;
  const login = !saved && (path === "/" || path === "/login");
  const screen = saved && path === "/" && !opens ? files.cabinet : login ? files.login : null;
  if (!screen) return null;
  // Inside Telegram the kept token is asked for before anything else: the client answers in a task of its own at
  // the earliest, after the page's first paint, and later on a busy phone. Meanwhile what needs no token goes out.
  const kept = saved && telegram ? keptTelegramToken(telegram) : null;
  if (kept) window.__kassaEarlyReplies = [send(calls.first[0], null)];
  const lng = startLanguage(telegram?.languageCode);
  // The painted screen and the headline's calls first, then the entry, then the other calls and the screen's code:
  // the browser opens at most six connections to a host, in this order.
  const token = saved && !telegram ? readTokenCookie() : null;
  if (token) painted = paintCabinet(token, lng, null);
  const more = sendCalls(token, false);
  // The login's header needs no reply (on the web; inside Telegram the sign-in is automatic).
  if (login && !telegram) painted = paintLoginEarly(lng);
  /** The entry, then the calls not painted (`more`), then the screen's code, stylesheets and texts. */
  let asked = false;
  const askForCode = (more: (() => void) | null) => {
    announceEntry();
    more?.();
    if (asked) return;
    asked = true;
    // The screen's one large file (the cabinet's chunk) goes last, once the link carries nothing but the entry (the
    // other files have come, or the entry has): asked for beside them on a slow link, it took its share and the
    // entry came last, when its evaluation and the app's start could have run while the chunk came; asked for once
    // the entry had come, the link stood idle for the request's round trip.
    const last = screen.last ?? [];
    // Inside Telegram the SDK's code with the entry: the app's start waits for its boot.
    if (telegram) for (const file of files.telegram.code) if (!last.includes(file)) link("modulepreload", file);
    // The screen's code, stylesheets and texts.
    for (const file of screen.code) if (!last.includes(file)) link("modulepreload", file);
    for (const file of screen.css) link("preload", file, "style");
    for (const file of screen.texts[lng] ?? []) link("modulepreload", file);
    const others = [...came].filter(([file]) => file !== files.entry.script).map(([, settled]) => settled);
    void Promise.race([came.get(files.entry.script), Promise.all(others)]).then(() => {
      for (const file of last) link("modulepreload", file);
    });
  };
  if (kept && telegram) {
    // The look only where the cabinet may be painted (a phone's width).
    const look = matchMedia("(min-width: 960px)").matches ? null : telegramLook(telegram);
    // As on the web: the calls first, the code after them, and the entry once the painted block is on screen (at
    // most PAINT_DEADLINE_MS from here, when all the code is asked for whatever happened). A client slow to answer
    // (a busy phone) gets the entry's own script asked for after CODE_WAIT_MS, and nothing more: a browser opens six
    // connections to a host, and the code's files would take those the token's calls need, for a second or more.
    setTimeout(() => link("modulepreload", files.entry.script), CODE_WAIT_MS);
    const deadline = new Promise((resolve) => setTimeout(resolve, PAINT_DEADLINE_MS));
    void deadline.then(() => askForCode(null));
    const read = kept.then(
      (token) => {
        let more: (() => void) | null = null;
        try {
          const painted = token && look ? paintCabinet(token, lng, look) : null;
          more = sendCalls(token, true);
          return painted;
        } finally {
          askForCode(more);
        }
      },
      () => askForCode(null),
    );
    return Promise.race([read.catch(() => null), deadline]);
  }
  askForCode(more);
  return painted;
}

/** The entry chunk, the code it imports and its stylesheet (only preloaded: `src/main.tsx` applies it). */
function announceEntry(): void {
  if (announced) return;
  announced = true;
  for (const file of files.entry.code) link("modulepreload", file);
  for (const file of files.entry.css) link("preload", file, "style").dataset.kassaStyles = "";
}

/** The entry's script, inserted once the page has been read (as the module script it replaces would run). */
function startEntry(): void {
  try {
    announceEntry();
  } catch {
    // The script below asks for the entry and its imports itself.
  }
  const insert = () => {
    const script = document.createElement("script");
    script.type = "module";
    script.crossOrigin = "";
    script.src = `/${files.entry.script}`;
    document.head.appendChild(script);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", insert, { once: true });
  else insert();
}

/**
 * The first screen's calls with the kept token, but those whose replies are on their way already (the maintenance
 * flag, which needs no token, sent inside Telegram before the token came; those the painted screen's reply carries):
 * at once those of its headline (inside Telegram the token's check first); the others when the function it returns
 * is called (null without a token), so that the entry and its imports do not wait for all six of a host's
 * connections.
 */
function sendCalls(token: string | null, telegram: boolean): (() => void) | null {
  if (!token) return null;
  window.__kassaEarlyReplies ??= [];
  const early = window.__kassaEarlyReplies;
  const sent = (path: string) => early.some((reply) => reply.url === `${resolveApiBaseUrl()}${path}`);
  const [work, ...others] = calls.first;
  const first = [...(telegram ? [calls.check] : []), ...others].filter((path) => !sent(path));
  if (!sent(work)) early.push(send(work, null));
  early.push(...first.map((path) => send(path, token)));
  return () => early.push(...calls.rest.map((path) => send(path, token)));
}

/** A preload of `href` (once). */
function link(rel: string, href: string, as?: string): HTMLLinkElement {
  const asked = links.get(href);
  if (asked) return asked;
  const element = document.createElement("link");
  links.set(href, element);
  element.rel = rel;
  element.crossOrigin = "";
  if (as) element.as = as;
  element.href = `/${href}`;
  came.set(
    href,
    element.relList.supports(rel)
      ? new Promise((settled) => {
          element.addEventListener("load", () => settled(), { once: true });
          element.addEventListener("error", () => settled(), { once: true });
        })
      : Promise.resolve(),
  );
  document.head.appendChild(element);
  return element;
}
