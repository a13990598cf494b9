// Written into index.html by the build, inline before the entry chunk (vite.config.ts, `launchPreload`), so a launch's second wave goes out
// beside the entry instead of after it: it announces the code and texts (module preload) of the screen the launch
// will show. With a saved user at the cabinet's start, that is the cabinet, and it also sends the first screen's
// calls with the kept token (the API client takes those replies, `src/lib/early-replies.ts`): on the web the token
// is the cookie; inside Telegram it is read where `src/tma/token-store.ts` keeps it (the client's SecureStorage or
// DeviceStorage, asked over the bridge without the SDK, else the framed store), and the kept token's check
// (`GET /user/me`) goes with the calls. Without a saved user at the start or the login, the login. Inside Telegram
// it also announces the SDK's code (`src/tma/boot.ts`), which every launch there boots. Plain JavaScript without
// imports: the build writes the file names in. Whatever goes wrong here, the entry does the same later.
const FILES = /* FILES */ {};
const LANGUAGES = ["en", "ru", "de", "kk"];
/** Who waits for an event from the Telegram client (`bridgeGet`). */
let bridgeListeners;

try {
  start();
} catch {
  // No storage, an odd browser: the entry chunk starts everything itself.
}

function start() {
  // Inline and `async`, it runs as the page is read (a stylesheet does not hold it back), before the entry; if the
  // entry started first anyway, it has asked for all of this itself.
  if (window.__kassaStarted) return;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const saved = localStorage.getItem("kassa.user") !== null;
  const screen =
    saved && path === "/" ? FILES.cabinet : !saved && (path === "/" || path === "/login") ? FILES.login : null;
  if (!screen) return;
  const telegram = telegramLaunch();
  // The calls first, then the code: the browser opens at most six connections to a host, in this order. Inside
  // Telegram the token comes from the client a moment later (a bridge round trip inside the phone).
  if (saved && !telegram) sendCalls(readCookie(), false);
  if (saved && telegram)
    keptTelegramToken(telegram).then(
      (token) => sendCalls(token, true),
      () => undefined,
    );
  // Inside Telegram the SDK's code too: the session is restored once it has booted.
  for (const file of [...screen.code, ...(telegram ? FILES.telegram.code : [])]) link("modulepreload", file);
  for (const file of screen.css) link("preload", file, "style");
  for (const file of screen.texts[language(telegram?.language)] ?? []) link("modulepreload", file);
}

function sendCalls(token, telegram) {
  if (!token) return;
  const meta = document.querySelector('meta[name="kassa:api-url"]')?.getAttribute("content")?.trim();
  const base = (meta || "/api").replace(/\/+$/, "");
  const send = (path, bearer) => {
    const url = `${base}${path}`;
    const headers = { Accept: "application/json" };
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    return { url, token: bearer, at: performance.now(), reply: fetch(url, { headers, credentials: "same-origin" }) };
  };
  window.__kassaEarlyReplies = [
    // Inside Telegram the kept token is checked before it counts (src/main.tsx): its check goes first.
    ...(telegram ? [send("/user/me", token)] : []),
    send("/settings/technical_work", null),
    send("/user/balance?type=balance", token),
    send("/user/statistics", token),
    send("/user/operations/?page=1&limit=5", token),
    send("/settings/subscription/options", token),
    send("/user/pulse", token),
  ];
}

function readCookie() {
  const cookie = /(?:^|;\s*)kassa_token=([^;]+)/.exec(document.cookie)?.[1];
  return cookie ? decodeURIComponent(cookie) : null;
}

/** As `detectTelegramLaunch` in src/tma/launch.ts: the parameters in the address, else the copy kept for reloads. */
function telegramLaunch() {
  let params = null;
  for (const source of [location.hash, location.search]) {
    const query = new URLSearchParams(source.replace(/^[#?]/, ""));
    if (query.has("tgWebAppPlatform") || query.has("tgWebAppData")) {
      params = query;
      break;
    }
  }
  // The app's copy of a launch's parameters, kept for reloads (src/tma/launch.ts).
  if (!params) {
    const kept = JSON.parse(sessionStorage.getItem("kassa.tgLaunch") ?? "null");
    if (typeof kept !== "string") return null;
    params = new URLSearchParams(kept);
  }
  let language;
  try {
    language = JSON.parse(new URLSearchParams(params.get("tgWebAppData") ?? "").get("user") ?? "null")?.language_code;
  } catch {
    language = undefined;
  }
  const devMock =
    new URLSearchParams(location.search).get("tgDevMock") === "1" || sessionStorage.getItem("kassa.tgDevMock") === "1";
  return {
    platform: params.get("tgWebAppPlatform") ?? "unknown",
    version: params.get("tgWebAppVersion") ?? "6.0",
    language,
    devMock,
  };
}

/**
 * The kept token as the boot's token store reads it (src/tma/token-store.ts, src/tma/boot.ts): the first of the
 * client's storages that answers (SecureStorage on the phones, DeviceStorage on the phones and desktop clients,
 * Bot API 9.0), else the framed store (a cookie, else local storage). Only read: moving a token between stores is
 * the boot's. With the biometric lock on, the token is in none of these (the boot asks for Face ID): no calls.
 */
async function keptTelegramToken(launch) {
  const tiers = [];
  if (Number(launch.version.split(".")[0]) >= 9 && !launch.devMock) {
    if (["ios", "android"].includes(launch.platform)) tiers.push("secure_storage");
    if (["ios", "android", "tdesktop", "macos"].includes(launch.platform)) tiers.push("device_storage");
  }
  // A client that keeps the token in its storages but cannot be asked here: the boot reads it.
  if (tiers.length > 0 && typeof window.TelegramWebviewProxy?.postEvent !== "function") return null;
  for (const prefix of tiers) {
    const answer = await bridgeGet(prefix, "kassa_refresh_token");
    if (answer === undefined) continue;
    if (answer) return answer;
    break;
  }
  return readCookie() || localStorage.getItem("kassa.token");
}

/** One of Telegram's storages asked for a key: its value (null when none), or undefined when refused or silent. */
function bridgeGet(prefix, key) {
  if (!bridgeListeners) {
    bridgeListeners = new Set();
    const receive = (eventType, eventData) => {
      for (const listener of bridgeListeners) listener(eventType, eventData);
    };
    // Where the native clients deliver their events; the SDK, loaded later, keeps calling what it finds there.
    window.Telegram ??= {};
    window.Telegram.WebView ??= {};
    window.Telegram.WebView.receiveEvent = chain(window.Telegram.WebView.receiveEvent, receive);
  }
  const reqId = `launch-${Math.random().toString(36).slice(2)}`;
  return new Promise((resolve) => {
    const done = (value) => {
      bridgeListeners.delete(listener);
      clearTimeout(timer);
      resolve(value);
    };
    const listener = (eventType, eventData) => {
      if (eventData?.req_id !== reqId) return;
      if (eventType === `${prefix}_key_received`) done(eventData.value ?? null);
      else if (eventType === `${prefix}_failed`) done(undefined);
    };
    bridgeListeners.add(listener);
    // As the boot's STORAGE_ANSWER_TIMEOUT_MS: a client that does not answer counts as not offering it.
    const timer = setTimeout(() => done(undefined), 800);
    window.TelegramWebviewProxy.postEvent(`web_app_${prefix}_get_key`, JSON.stringify({ req_id: reqId, key }));
  });
}

function chain(previous, next) {
  return typeof previous === "function"
    ? (...args) => {
        previous(...args);
        next(...args);
      }
    : next;
}

function link(rel, href, as) {
  const element = document.createElement("link");
  element.rel = rel;
  element.href = `/${href}`;
  element.crossOrigin = "";
  if (as) element.as = as;
  document.head.appendChild(element);
}

/** As `detectLanguage` in src/config/i18n.ts: the saved choice, else Telegram's, else the browser's, else Russian. */
function language(telegram) {
  const saved = localStorage.getItem("kassa.language");
  if (LANGUAGES.includes(saved)) return saved;
  for (const code of [telegram, ...(navigator.languages ?? [])]) {
    const primary = (code ?? "").trim().toLowerCase().split(/[-_]/)[0];
    const mapped = primary === "kz" ? "kk" : primary;
    if (LANGUAGES.includes(mapped)) return mapped;
  }
  return "ru";
}
