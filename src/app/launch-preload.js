// Written into index.html by the build (build/launch-preload.ts): a classic inline script at the top of the
// head, so the launch's calls go out the moment the parser reaches it, before any file is asked for. It also
// announces the code and texts (module preload) of the screen the launch will show, and inserts the app's entry
// chunk itself (the page has no static entry tag): at its true priority. With a saved user at the cabinet's
// start, the screen is the cabinet, and it sends the first screen's calls with the kept token (the API client takes
// those replies, `src/lib/early-replies.ts`): on the web the token is the cookie; inside Telegram it is read where
// `src/tma/token-store.ts` keeps it (the client's SecureStorage or DeviceStorage, asked over the bridge without the
// SDK, else the framed store), and the kept token's check (`GET /user/me`) goes with the calls. Without a saved
// user at the start or the login, the login. Inside Telegram it also announces the SDK's code (`src/tma/boot.ts`),
// which every launch there boots. It paints the cabinet's balance itself from those replies (below: on the web,
// and inside Telegram once the kept token's check is good, in the client's look); on the web the app's code is then
// asked for once the painted balance is on screen (`painted`; docs/launch-performance.md says why). Plain
// JavaScript without imports: the build writes the file names in. Whatever goes wrong here, the entry is still
// inserted.
/**
 * The files, written in by the build: the entry chunk (`entry.script`), the code it imports and its stylesheets
 * (`entry.code`, `entry.css`), and per screen its code, stylesheets and per language its texts.
 */
const FILES = /* FILES */ {};
/**
 * What the early balance block shows and wears, written in by the build: per language the texts it needs
 * (Russian filling what a language lacks), each currency's display precision, telegram-ui's class names for its
 * root, list and title, and the rules of the app's stylesheets that style those and the app's classes it wears
 * (`css`), so that it paints before the stylesheets, which download beside the app's code, have come.
 */
const PAINT = /* PAINT */ {};
const LANGUAGES = ["en", "ru", "de", "kk"];
/**
 * How Intl writes numbers in each language (Unicode CLDR): the group separator and the decimal mark. Russian and
 * Kazakh group with a no-break space (a browser without Kazakh number data formats Kazakh as Russian: the same).
 * `tests/e2e/early-balance.test.ts` compares the painted figure with the app's, formatted by Intl, in all four.
 */
const NUMBER_MARKS = { en: [",", "."], de: [".", ","], ru: ["\u00a0", ","], kk: ["\u00a0", ","] };
/** The longest the app's code waits for the painted balance (`painted`). */
const PAINT_DEADLINE_MS = 1000;
/** Who waits for an event from the Telegram client (`listenToTheClient`). */
let bridgeListeners;
/** The language the app will start in (`language`). */
let lng;
/** Whether the entry's files have been announced. */
let announced = false;
/**
 * On the web, with a balance to paint: settles once the painted balance has been painted (or will not be, or after
 * `PAINT_DEADLINE_MS`), and the app's code, its stylesheets and texts are asked for then. A page-load audit such as
 * Lighthouse's counts every file that finished before the largest paint as something that paint waited for; asked
 * for at once, the code's files finish first on a fast link and the audit's phone then "waits" for all of them. On
 * a phone's link the code takes a second anyway: asked for after the figure (0.3-0.6 s) it costs the app ~0.25 s.
 */
let painted = null;

try {
  start();
} catch {
  // No storage, an odd browser: the entry chunk starts everything itself.
} finally {
  if (painted) painted.then(startEntry);
  else startEntry();
}

function start() {
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const saved = localStorage.getItem("kassa.user") !== null;
  const screen =
    saved && path === "/" ? FILES.cabinet : !saved && (path === "/" || path === "/login") ? FILES.login : null;
  if (!screen) return;
  const telegram = telegramLaunch();
  lng = language(telegram?.language);
  // The calls first, then the code: the browser opens at most six connections to a host, in this order. Inside
  // Telegram the token comes from the client a moment later (a bridge round trip inside the phone); the safe
  // areas the painted block pads with are asked for meanwhile.
  const more = saved && !telegram ? sendCalls(readCookie(), false) : null;
  if (more) painted = paintBalanceEarly(null);
  // The login's header needs no reply: painted as soon as the page has been read (on the web; inside Telegram the
  // sign-in is automatic).
  if (screen === FILES.login && !telegram) painted = paintLoginEarly();
  if (saved && telegram) {
    // The look is read (and the safe areas asked for) only where a balance may be painted: a phone's width. The
    // code keeps its default priority here: announced before the token has come, at low priority it waited for the
    // calls sent then, and the app came 0.1-0.3 s later (bench:launch's telegram case).
    const look = matchMedia("(min-width: 960px)").matches ? null : telegramLook(telegram);
    keptTelegramToken(telegram).then(
      (token) => {
        const more = sendCalls(token, true);
        more?.();
        if (more && look) paintBalanceEarly(look);
      },
      () => undefined,
    );
  }
  const code = () => {
    announceEntry();
    // Inside Telegram the SDK's code too: the session is restored once it has booted.
    for (const file of [...screen.code, ...(telegram ? FILES.telegram.code : [])]) link("modulepreload", file);
    for (const file of screen.css) link("preload", file, "style");
    for (const file of screen.texts[lng] ?? []) link("modulepreload", file);
  };
  if (painted) {
    more?.();
    painted.then(code);
    return;
  }
  announceEntry();
  more?.();
  code();
}

/**
 * The entry chunk, the code it imports and its stylesheet, asked for at once (the stylesheet is only preloaded:
 * the first paint, the boot screen's or the painted balance's, does not wait for it; the entry applies it before
 * its first render, `src/main.tsx`).
 */
function announceEntry() {
  if (announced) return;
  announced = true;
  for (const file of FILES.entry.code) link("modulepreload", file);
  for (const file of FILES.entry.css) link("preload", file, "style").dataset.kassaStyles = "";
}

/**
 * The entry chunk's script, inserted once the page has been read (as the module script it replaces would run:
 * the app renders into `#root`), after its files were announced. Runs whatever the launcher did before.
 */
function startEntry() {
  try {
    announceEntry();
  } catch {
    // The script below asks for the entry and its imports itself.
  }
  const insert = () => {
    const script = document.createElement("script");
    script.type = "module";
    script.crossOrigin = "";
    script.src = `/${FILES.entry.script}`;
    document.head.appendChild(script);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", insert, { once: true });
  else insert();
}

/**
 * The first screen's calls with the kept token: at once those the painted balance needs (inside Telegram the
 * token's check first); the others when the function it returns is called (null without a token). Over HTTP/1.1 a
 * browser opens six connections to a host: the entry and its imports go between the two, so that they do not
 * wait for all six calls.
 */
function sendCalls(token, telegram) {
  if (!token) return null;
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
  ];
  return () =>
    window.__kassaEarlyReplies.push(
      send("/user/operations/?page=1&limit=5", token),
      send("/settings/subscription/options", token),
      send("/user/pulse", token),
    );
}

/**
 * The cabinet's balance block, painted from the early replies before the app's code has run (at the cabinet's
 * start, with the kept token, on a phone's width): the same markup, classes and texts as the cabinet's first
 * render above and in its balance card (`CabinetLayout`, `CabinetHeader`, `CabinetRoute`'s room for the overview,
 * `BalanceCard`), styled by the stylesheets' own rules for them (`PAINT.css`), the amounts formatted as
 * `formatAmount` does, so that when the app renders, its figure is where this one was and reads the same. Only
 * when the maintenance flag is off and the balance came back good (inside Telegram also the kept token's check:
 * the app's user is that reply's, `src/main.tsx`); never once the app has rendered. Inside Telegram it wears the
 * client's look (`look`, from `telegramLook`): the theme's colours, light or dark and the platform as the app
 * takes them, and the safe areas it pads with. Hidden from screen readers (the app's render is the page); when
 * the app's first render (a spinner while its screen loads) takes it out of `#root`, it stays over the app, out of
 * the flow, until the app's own figure is there. Null when it will not try; else a promise settled once it has
 * painted, or will not (the app's code is asked for then).
 */
function paintBalanceEarly(look) {
  const phone = !matchMedia("(min-width: 960px)").matches;
  const saved = look ? null : JSON.parse(localStorage.getItem("kassa.user") ?? "null");
  if (!phone || (!look && typeof saved?.login !== "string")) return null;
  let shown;
  const settled = new Promise((resolve) => {
    shown = () => afterPaint(resolve);
    setTimeout(resolve, PAINT_DEADLINE_MS);
  });
  // The replies' copies, taken before the app reads them.
  const [work, balance, statistics, me] = [
    "/settings/technical_work",
    "/user/balance?type=balance",
    "/user/statistics",
    "/user/me",
  ].map((path) => {
    const early = window.__kassaEarlyReplies.find((reply) => reply.url.endsWith(path));
    if (!early) return Promise.resolve(null);
    const body = early.reply.then((response) => (response.status === 200 ? response.clone().json() : Promise.reject()));
    body.catch(() => undefined);
    return body;
  });
  // The statistics too (sent with the balance, back a few milliseconds after it): the amount on deposit, and which
  // currencies hold deposits, which the room kept for the whole picture counts. When they fail, the amount on deposit
  // is "…", as the card shows it, and the room counts the balance alone, as the app's then does.
  Promise.all([work, balance, me, look?.insets, statistics.catch(() => null)]).then(
    ([work, balance, me, insets, statistics]) => {
      const user = look ? me : saved;
      if (work?.enabled !== false || typeof user?.login !== "string") return shown();
      const boot = document.querySelector("#root > [data-testid='boot']");
      const block = boot && balanceBlock(user, balance, statistics, look && { ...look, insets });
      if (!block) return shown();
      keepUntilTheApp(boot.parentElement, boot, block, (root) => {
        const screen = root.querySelector("[data-screen]");
        return (
          root.querySelector("[data-testid='balance']") !== null || (screen && screen.dataset.screen !== "cabinet")
        );
      });
      shown();
      afterPaint(warmIntl);
    },
    () => shown(),
  );
  return settled;
}

/**
 * The login's brand header (`BrandHeader` at the top of `LoginRoute`: the mark, the name, the tagline), painted once
 * the page has been read, as the app's first render of the login shows it, styled by the stylesheets' own rules for
 * it (`PAINT.loginCss`): the login's largest text, on screen before the app's code has come. Kept over the app's
 * first renders until a screen of the app shows. A promise settled once it has been painted (or it will not
 * be): the app's code is asked for then (`painted`). Null when there is nothing to paint it with.
 */
function paintLoginEarly() {
  const texts = PAINT.loginTexts?.[lng];
  if (!texts || !PAINT.loginCss) return null;
  return new Promise((resolve) => {
    const paint = () => {
      try {
        const boot = document.querySelector("#root > [data-testid='boot']");
        if (boot)
          keepUntilTheApp(boot.parentElement, boot, loginBlock(texts), (root) => root.querySelector("[data-screen]"));
      } finally {
        afterPaint(resolve);
        setTimeout(resolve, PAINT_DEADLINE_MS);
      }
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", paint, { once: true });
    else paint();
  });
}

function loginBlock(texts) {
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const svg = (tag, attributes, children = []) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    node.append(...children);
    return node;
  };
  // `KassaMark` at 64 px.
  const mark = svg("svg", { width: 64, height: 64, viewBox: "0 0 64 64", "aria-hidden": "true", focusable: "false" }, [
    svg("rect", { width: 64, height: 64, rx: 16, fill: "var(--tgui--button_color, #2481cc)" }),
    svg("path", {
      d: "M22 18v28M22 32l14-14M27 27l11 19",
      stroke: "var(--tgui--button_text_color, #fff)",
      "stroke-width": 5,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
      fill: "none",
    }),
  ]);
  return element(
    "div",
    `${PAINT.classes.root}${dark ? ` ${PAINT.classes.dark}` : ""} app-root`,
    [
      element("style", "", [PAINT.loginCss]),
      element("div", "public-layout", [
        element("div", "page public-page", [
          element("header", "brand-header", [
            mark,
            element("h1", PAINT.classes.brandTitle, [texts.appName]),
            element("span", `${PAINT.classes.brandText} brand-tagline`, [texts.tagline], {
              "data-testid": "tagline-painted",
            }),
          ]),
        ]),
      ]),
    ],
    {
      "aria-hidden": "true",
      inert: "",
      "data-appearance": dark ? "dark" : "light",
      "data-platform": "base",
      "data-testid": "painted-login",
    },
  );
}

/**
 * `then` once what was just put on the page has been painted: a frame's callbacks run before its paint, the next
 * frame's after it.
 */
function afterPaint(then) {
  requestAnimationFrame(() => requestAnimationFrame(() => then()));
}

/** An element of the painted blocks. */
function element(tag, className, children = [], attributes = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** The painted frame down to the balance block, or null when a figure cannot be shown exactly as the app would. */
function balanceBlock(user, balance, statistics, look) {
  const texts = PAINT.texts[lng];
  const currency = balance?.currentCurrency;
  const amount = format(balance?.currencies?.[currency], currency, lng);
  if (!texts || !amount) return null;
  const onDeposit = format(statistics?.amountOnDeposit?.[currency], currency, lng) ?? "…";
  const dark = look ? look.dark : matchMedia("(prefers-color-scheme: dark)").matches;
  const ios = look?.platform === "ios";
  // As `heldOf` (src/app/routes/cabinet.tsx): a line per currency with money on the balance or on deposits, a row
  // more on each with deposits.
  const some = (value) => typeof value === "string" && /[1-9]/.test(value);
  const deposited = statistics?.amountOnDeposit ?? {};
  const currencies = [...new Set([...Object.keys(balance.currencies), ...Object.keys(deposited)])];
  const lines = currencies.filter((code) => some(balance.currencies[code]) || some(deposited[code])).length;
  const deposits = currencies.filter((code) => some(deposited[code])).length;
  const unread = user.notifications?.unread ?? 0;
  const room = (child) =>
    element("div", "cabinet-reserved cabinet-reserved-overview", child ? [child] : [], {
      style: `--reserved-lines: ${lines}; --reserved-deposits: ${deposits}`,
    });
  const welcome = texts.welcome.replace("{{login}}", user.fullName || user.login);
  return element(
    "div",
    `${PAINT.classes.root}${ios ? ` ${PAINT.classes.ios}` : ""}${dark ? ` ${PAINT.classes.dark}` : ""} app-root`,
    [
      // The stylesheets' rules for what follows; they go with the block.
      element("style", "", [PAINT.css]),
      element("div", "cabinet cabinet-narrow", [
        element("main", "cabinet-content", [
          element("div", "page", [
            element("header", "page-header", [
              element("div", "page-title-row", [
                element("h1", `${PAINT.classes.title} page-title`, [element("span", "", [welcome])]),
                // The room of the header's Refresh (telegram-ui's IconButton, 40 px) and the bell.
                element("span", "", [], { style: "flex: none; width: 40px; height: 40px" }),
                element(
                  "span",
                  "notification-bell",
                  [],
                  unread > 0 ? { "data-count": unread > 99 ? "99+" : unread } : {},
                ),
              ]),
            ]),
            element("div", `${PAINT.classes.list}${ios ? ` ${PAINT.classes.listIos}` : ""}`, [
              room(room()),
              element("section", "balance-hero-wrap", [
                element("div", "balance-hero", [
                  element("span", "balance-hero-label", [texts.balance]),
                  element("span", "balance-hero-amount", [amount], {
                    "data-testid": "balance-painted",
                    "data-amount": balance.currencies[currency],
                    "data-currency": currency,
                  }),
                  element("span", "balance-hero-deposit", [
                    `${texts.amountOnDeposit}: `,
                    element("span", "", [onDeposit], { "data-testid": "amount-on-deposit-painted" }),
                  ]),
                ]),
              ]),
            ]),
          ]),
        ]),
      ]),
    ],
    {
      "aria-hidden": "true",
      inert: "",
      "data-appearance": dark ? "dark" : "light",
      "data-platform": ios ? "ios" : "base",
      "data-testid": "painted-cabinet",
      // Inside Telegram: the theme's colours and the safe areas, as the app has them by its first render.
      ...(look
        ? { "data-telegram": look.client, style: declarations({ ...look.colors, ...safeAreas(look.insets) }) }
        : {}),
    },
  );
}

/** The safe areas the app pads with (base.css's `--safe-*`), from the client's answers (zero without one). */
function safeAreas(insets) {
  const side = (name, side) => Number(insets?.[name]?.[side]) || 0;
  return {
    "--safe-top": `${side("safe", "top") + side("content", "top")}px`,
    "--safe-bottom": `${side("safe", "bottom") + side("content", "bottom")}px`,
    "--safe-left": `${side("safe", "left")}px`,
    "--safe-right": `${side("safe", "right")}px`,
  };
}

function declarations(properties) {
  return Object.entries(properties)
    .map(([name, value]) => `${name}: ${value}`)
    .join("; ");
}

/**
 * How the app looks inside Telegram by its first render (`src/tma/boot.ts`, `src/app/provider.tsx`): the theme's
 * colours as the SDK binds them (`--tg-theme-*`, from the launch parameters), dark when the theme's background is
 * dark or missing (the SDK's `themeParams.isDark`), telegram-ui's iOS look on the Apple clients (`uiPlatformOf`),
 * and the safe areas the client reports (asked for here as the boot asks for them; none when it does not answer).
 * Null for a theme whose colours it cannot read as the SDK would: then nothing is painted.
 */
function telegramLook(launch) {
  let theme;
  try {
    theme = JSON.parse(launch.params.get("tgWebAppThemeParams") ?? "{}");
  } catch {
    return null;
  }
  if (!theme || typeof theme !== "object") return null;
  const colors = {};
  for (const [key, value] of Object.entries(theme)) {
    const color = hexColor(value);
    if (!color) return null;
    colors[`--tg-theme-${key.replace(/_/g, "-")}`] = color;
  }
  const background = colors["--tg-theme-bg-color"];
  return {
    client: launch.platform,
    platform: launch.platform === "ios" || launch.platform === "macos" ? "ios" : "base",
    dark: !background || brightness(background) < 120,
    colors,
    insets: safeAreaAnswers(launch),
  };
}

/** `#rgb` or `#rrggbb` as `#rrggbb` in lower case (as the SDK keeps theme colours), else null. */
function hexColor(value) {
  const match = typeof value === "string" ? /^#([\da-f]{3}|[\da-f]{6})$/i.exec(value.trim()) : null;
  if (!match) return null;
  const digits = match[1].toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits}`;
}

/** The SDK's `isColorDark` measure (dark below 120). */
function brightness(color) {
  const [red, green, blue] = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16));
  return Math.sqrt(0.299 * red * red + 0.587 * green * green + 0.114 * blue * blue);
}

/**
 * The client's safe areas (the device's, and Telegram's controls over the content in fullscreen), asked for as
 * the boot asks for them (Bot API 8.0): each answer, or null when the client has not answered in 400 ms (Telegram
 * Web K never does; the app then pads with none, as the boot sets them to zero first).
 */
function safeAreaAnswers(launch) {
  if (Number(launch.version.split(".")[0]) < 8 || launch.devMock) return Promise.resolve(null);
  const ask = (kind) =>
    new Promise((resolve) => {
      const done = (value) => {
        bridgeListeners.delete(listener);
        clearTimeout(timer);
        resolve(value);
      };
      const listener = (eventType, eventData) => {
        if (eventType === `${kind}_changed`) done(eventData);
      };
      listenToTheClient().add(listener);
      const timer = setTimeout(() => done(null), 400);
      if (!postEvent(`web_app_request_${kind}`)) done(null);
    });
  return Promise.all([ask("safe_area"), ask("content_safe_area")]).then(([safe, content]) => ({ safe, content }));
}

/**
 * As `formatAmount` (src/lib/money.ts): truncated to the currency's display precision, grouped by three and
 * separated the language's way, as Intl writes these languages (`NUMBER_MARKS`). Without Intl: the first
 * `Intl.NumberFormat` of a page costs ~20 ms of main thread (its number data is set up), 80 ms on a phone four
 * times slower, in the task that paints the balance; it is set up once the figure is painted instead
 * (`warmIntl`), before the app's code, which formats with it, has come. Null for what that function would show
 * differently here (not a plain non-negative decimal, an unknown currency): then nothing is painted.
 */
function format(amount, currency, lng) {
  const digits = PAINT.display[currency];
  const match = typeof amount === "string" ? /^(\d+)(?:\.(\d+))?$/.exec(amount) : null;
  const marks = NUMBER_MARKS[lng];
  if (digits === undefined || !match || !marks) return null;
  const whole = match[1].replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+$)/g, marks[0]);
  const fraction = (match[2] ?? "").slice(0, digits).padEnd(digits, "0");
  return `${whole}${digits > 0 ? marks[1] + fraction : ""} ${currency}`;
}

/** Has the page's number formatting set up while nothing else runs (see `format`). */
function warmIntl() {
  const warm = () => new Intl.NumberFormat(lng).format(0);
  if (typeof requestIdleCallback === "function") requestIdleCallback(warm, { timeout: 1000 });
  else setTimeout(warm);
}

/**
 * Puts `block` in the place of the boot screen. The app's first render empties `#root`; until the app shows what
 * the block stands for (`appShows(root)`: the cabinet's own figure or another screen, the login's screen), the
 * block stays where it was, over the app (fixed, out of the flow, nothing to click), then goes.
 */
function keepUntilTheApp(root, boot, block, appShows) {
  boot.replaceWith(block);
  const started = performance.now();
  let overlay = null;
  const done = () => {
    observer.disconnect();
    overlay?.remove();
    block.remove();
  };
  const check = () => {
    if (block.parentElement === root) return;
    // What the block stands for is the app's now (`appShows`), or the app did not show it in time: the app's page.
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
    params,
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
    listenToTheClient().add(listener);
    // As the boot's STORAGE_ANSWER_TIMEOUT_MS: a client that does not answer counts as not offering it.
    const timer = setTimeout(() => done(undefined), 800);
    postEvent(`web_app_${prefix}_get_key`, { req_id: reqId, key });
  });
}

/**
 * Who waits for the client's events: the native clients call `Telegram.WebView.receiveEvent` (the SDK, loaded
 * later, keeps calling what it finds there), Telegram Web posts them to its frame as JSON strings.
 */
function listenToTheClient() {
  if (bridgeListeners) return bridgeListeners;
  const listeners = new Set();
  bridgeListeners = listeners;
  const receive = (eventType, eventData) => {
    for (const listener of listeners) listener(eventType, eventData);
  };
  window.Telegram ??= {};
  window.Telegram.WebView ??= {};
  window.Telegram.WebView.receiveEvent = chain(window.Telegram.WebView.receiveEvent, receive);
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || typeof event.data !== "string") return;
    try {
      const { eventType, eventData } = JSON.parse(event.data);
      if (typeof eventType === "string") receive(eventType, eventData);
    } catch {
      // Not the client's.
    }
  });
  return listeners;
}

/**
 * An event to the client, as the SDK posts it: the native clients' proxy, the desktop's `external.notify`, else
 * Telegram Web's frame parent. False when there is no client to post to.
 */
function postEvent(eventType, eventData) {
  const data = eventData === undefined ? "" : JSON.stringify(eventData);
  if (typeof window.TelegramWebviewProxy?.postEvent === "function") {
    window.TelegramWebviewProxy.postEvent(eventType, data);
    return true;
  }
  if (typeof window.external?.notify === "function") {
    window.external.notify(JSON.stringify({ eventType, eventData }));
    return true;
  }
  if (window.parent === window) return false;
  window.parent.postMessage(JSON.stringify({ eventType, eventData }), "https://web.telegram.org");
  return true;
}

function chain(previous, next) {
  return typeof previous === "function"
    ? (...args) => {
        previous(...args);
        next(...args);
      }
    : next;
}

/** A preload of `href`. */
function link(rel, href, as) {
  const element = document.createElement("link");
  element.rel = rel;
  element.crossOrigin = "";
  if (as) element.as = as;
  element.href = `/${href}`;
  document.head.appendChild(element);
  return element;
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
