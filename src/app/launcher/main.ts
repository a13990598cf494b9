// The launcher (docs/architecture.md#how-a-launch-flows): bundled by the build from the app's own modules and
// written into index.html as a classic inline script at the top of the head (`build/launch-preload.ts`). The moment
// the parser reaches it, it asks the server for the cabinet's first screen with the kept token, which answers the
// launch's calls too (`paint.ts`), asks for the code and texts of the screen the launch will show, paints what that
// screen shows first and inserts the app's entry chunk (the page has no static entry tag).
// Whatever goes wrong here, the entry is still inserted.
import { startLanguage } from "@/config/language";
import { mediaMatches, WIDE_LAYOUT_QUERY } from "@/config/media";
import { startParamPath } from "@/config/paths";
import { preloadFile } from "@/lib/preload-file";
import { readTokenCookie, USER_STORAGE_KEY } from "@/lib/session-keys";
import { detectTelegramLaunch } from "@/tma/launch";
import { LAUNCH } from "./build-time";
import { PAINT_DEADLINE_MS, paintCabinet, paintLoginEarly, parsed } from "./paint";
import { keptTelegramToken, telegramLook } from "./telegram";

const { files } = LAUNCH;
/** Settles once the entry's script has come or failed (its preload's events). Declared before the start below. */
let entryCame: Promise<unknown> | undefined;
/**
 * Inside Telegram, how long the entry's own script waits for the client's answer with the kept token (it normally
 * comes at once) before it is asked for; the rest of the code waits for the first screen's call to go out.
 */
const CODE_WAIT_MS = 100;
/**
 * Settles once the painted block is on screen (or will not be, at most 1 s): the entry is inserted then. Run before
 * the block is painted, its evaluation and first render would hold the main thread that paints it.
 */
let painted: Promise<unknown> | null = null;

try {
  painted = start();
} catch {
  // No storage, an odd browser: the entry chunk starts everything itself.
}
void Promise.resolve(painted).then(startEntry);

function start(): Promise<unknown> | null {
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const saved = localStorage.getItem(USER_STORAGE_KEY) !== null;
  const telegram = detectTelegramLaunch();
  // A launch with a start parameter (a chat button's screen) opens that screen, as the app's start does: a deep link.
  const opens = telegram?.fresh ? startParamPath(telegram.startParam) : undefined;
  const login = !saved && (path === "/" || path === "/login");
  const screen = saved && path === "/" && !opens ? files.cabinet : login ? files.login : null;
  if (!screen) return null;
  const lng = startLanguage(telegram?.languageCode);
  /**
   * The entry, then (inside Telegram the SDK's boot and) the screen's code, stylesheets and texts, and its one large
   * file (the cabinet's launch chunk) once the entry has come: the app starts when the entry has come and run, and
   * needs that chunk only later, while the chunk asked for beside the entry took a share of a slow link and the
   * entry came later (the app 0.1 s later on the benchmark's phone).
   */
  const askForCode = () => {
    const first = [...files.entry.files, ...(telegram ? files.telegram : []), ...screen.files];
    for (const file of first) if (!screen.last.includes(file)) link(file);
    for (const file of screen.texts[lng] ?? []) link(file);
    void entryCame?.then(() => screen.last.forEach(link));
  };
  if (login) {
    askForCode();
    // The login's header needs no reply (on the web; inside Telegram the sign-in is automatic).
    return telegram ? null : paintLoginEarly(lng);
  }
  // The call first: a browser opens at most six connections to a host. Inside Telegram the client answers with the
  // kept token in a task of its own at the earliest, after the page's first paint, and later on a busy phone: the
  // entry's own script is asked for after CODE_WAIT_MS, the rest of the code once the call has gone out (or after
  // PAINT_DEADLINE_MS, when the entry is inserted whatever happened). The client's look only where the cabinet may
  // be painted (a phone's width).
  const kept = telegram ? keptTelegramToken(telegram) : Promise.resolve(readTokenCookie());
  const look = telegram && !mediaMatches(WIDE_LAYOUT_QUERY) ? telegramLook(telegram) : null;
  if (telegram) setTimeout(() => link(files.entry.script), CODE_WAIT_MS);
  const deadline = new Promise((resolve) => setTimeout(resolve, PAINT_DEADLINE_MS));
  void deadline.then(askForCode);
  const read = kept.then(
    (token) => {
      try {
        return token ? paintCabinet(token, lng, look) : null;
      } finally {
        askForCode();
      }
    },
    () => askForCode(),
  );
  return Promise.race([read.catch(() => null), deadline]);
}

/** The entry's script, inserted once the page has been read (as the module script it replaces would run). */
function startEntry(): void {
  void parsed.then(() => {
    const script = document.createElement("script");
    script.type = "module";
    script.crossOrigin = "";
    script.src = `/${files.entry.script}`;
    document.head.appendChild(script);
  });
  // Should this throw, the script above asks for the entry and its imports itself.
  for (const file of files.entry.files) link(file);
}

/**
 * A preload of `file`, unless the page has one already (`preloadFile`); the entry's stylesheets marked for
 * `src/main.tsx`, which applies them.
 */
function link(file: string): void {
  const element = preloadFile(file);
  if (element && file.endsWith(".css") && files.entry.files.includes(file)) element.dataset.kassaStyles = "";
  if (element && file === files.entry.script)
    entryCame = new Promise((came) => (element.onload = element.onerror = came));
}
