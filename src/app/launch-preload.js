// Loaded by index.html before the entry chunk (vite.config.ts, `launchPreload`), so a launch's second wave goes out
// beside the entry instead of after it: it announces the code and texts (module preload) of the screen the launch
// will show. With a saved user on the web at the cabinet's start, that is the cabinet, and it also sends the first
// screen's calls with the kept token (the API client takes those replies, `src/lib/early-replies.ts`); without a
// saved user at the start or the login, the login. Plain JavaScript without imports: the build writes the file
// names in. Whatever goes wrong here, the entry does the same a wave later.
const FILES = /* FILES */ {};
const LANGUAGES = ["en", "ru", "de", "kk"];

try {
  start();
} catch {
  // No storage, an odd browser: the entry chunk starts everything itself.
}

function start() {
  // Loaded `async`, it runs as soon as it arrives (a stylesheet does not hold it back), which is almost always
  // before the entry; if the entry started first (both cached), it has asked for all of this itself.
  if (window.__kassaStarted) return;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const saved = localStorage.getItem("kassa.user") !== null;
  const screen =
    saved && path === "/" ? FILES.cabinet : !saved && (path === "/" || path === "/login") ? FILES.login : null;
  if (!screen) return;
  // Inside Telegram the kept token lives in the client's storage and is checked first, and the language may be
  // the client's: the entry sees to those.
  const telegram = /tgWebApp/.test(location.hash + location.search) || sessionStorage.getItem("kassa.tgLaunch");
  // The calls first, then the code: the browser opens at most six connections to a host, in this order.
  if (saved && !telegram) sendCalls();
  for (const file of screen.code) link("modulepreload", file);
  for (const file of screen.css) link("preload", file, "style");
  if (!telegram) for (const file of screen.texts[language()] ?? []) link("modulepreload", file);
}

function sendCalls() {
  const cookie = /(?:^|;\s*)kassa_token=([^;]+)/.exec(document.cookie)?.[1];
  if (!cookie) return;
  const token = decodeURIComponent(cookie);
  const meta = document.querySelector('meta[name="kassa:api-url"]')?.getAttribute("content")?.trim();
  const base = (meta || "/api").replace(/\/+$/, "");
  const send = (path, bearer) => {
    const url = `${base}${path}`;
    const headers = { Accept: "application/json" };
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    return { url, token: bearer, at: performance.now(), reply: fetch(url, { headers, credentials: "same-origin" }) };
  };
  window.__kassaEarlyReplies = [
    send("/settings/technical_work", null),
    send("/user/balance?type=balance", token),
    send("/user/statistics", token),
    send("/user/operations/?page=1&limit=5", token),
    send("/settings/subscription/options", token),
    send("/user/pulse", token),
  ];
}

function link(rel, href, as) {
  const element = document.createElement("link");
  element.rel = rel;
  element.href = `/${href}`;
  element.crossOrigin = "";
  if (as) element.as = as;
  document.head.appendChild(element);
}

/** As `detectLanguage` in src/config/i18n.ts: the saved choice, else the browser's, else Russian. */
function language() {
  const saved = localStorage.getItem("kassa.language");
  if (LANGUAGES.includes(saved)) return saved;
  for (const code of navigator.languages ?? []) {
    const primary = code.trim().toLowerCase().split(/[-_]/)[0];
    const mapped = primary === "kz" ? "kk" : primary;
    if (LANGUAGES.includes(mapped)) return mapped;
  }
  return "ru";
}
