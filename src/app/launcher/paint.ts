// What the launcher paints before the app's code has run (docs/architecture.md#how-a-launch-flows): the cabinet's
// first render, with the figures of the early replies, and the login's brand header. Both are the markup of the
// app's own components, rendered by the build (`templates.tsx`) into the page's end (`paintTemplate`); the figures
// are the app's formatter's (`formatAmount`).
import type { Currency } from "@contract";
import type { User } from "@contract/user";
import { needsPhoneConfirmation } from "@/features/auth/model/phone-pending";
import { unreadBadge } from "@/features/notifications/lib/badge";
import { formatAmount } from "@/lib/format-amount";
import { USER_STORAGE_KEY } from "@/lib/session-keys";
import { shownName } from "@/lib/shown-name";
import { LAUNCH, paintTemplate } from "./build-time";
import { PAINTED_ATTRIBUTES } from "./painted-attributes";
import { type Look, tellReady } from "./telegram";

const { paint: PAINT, calls } = LAUNCH;
/** The longest the entry waits for the painted block. */
export const PAINT_DEADLINE_MS = 1000;

/** The overview's figures in the current currency (`OverviewReply["current"]`), as read from an early reply. */
interface Current {
  currency?: string;
  total?: unknown;
  balance?: unknown;
  onDeposit?: unknown;
}
type PaintedUser = Pick<User, "login" | "fullName" | "phone" | "phoneConfirmed"> & {
  notifications?: { unread?: number };
};

/**
 * The cabinet's headline, painted from the early replies (at the cabinet's start, with the kept token, on a
 * phone's width), only when the maintenance flag is off, the balance and the overview came back good (inside
 * Telegram also the kept token's check, in the client's `look`) and the investor's phone does not wait for its code (the
 * app shows its confirmation instead). Null when it will not try; else a promise settled once it has painted, or will
 * not (the entry is inserted then).
 */
export function paintBalanceEarly(lng: string, look: Look | null): Promise<void> | null {
  const phone = !matchMedia("(min-width: 960px)").matches;
  const saved = look ? null : (JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? "null") as PaintedUser | null);
  if (!phone || (!look && typeof saved?.login !== "string")) return null;
  // A page's first number format loads the browser's locale data (at the phone's 4× slower CPU the launch's longest
  // task after the entry's evaluation): done now, while the replies are on their way, not once they are in, before
  // the figures paint (the app's formats after it are cheap).
  setTimeout(() => new Intl.NumberFormat(lng).format(0));
  let shown: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    shown = () => afterPaint(resolve);
    setTimeout(resolve, PAINT_DEADLINE_MS);
  });
  // The replies' copies, taken before the app reads them.
  const [work, balance, overview, me] = [...calls.painted, calls.check].map((path) => {
    const early = window.__kassaEarlyReplies?.find((reply) => reply.url.endsWith(path));
    if (!early) return Promise.resolve(null);
    const body = early.reply.then((response) => (response.status === 200 ? response.clone().json() : Promise.reject()));
    body.catch(() => undefined);
    return body;
  });
  // The balance's reply is not shown, but a failed one is a cabinet the app will not show as painted. The block's
  // markup is at the page's end: read once the page has been.
  Promise.all([work, balance, overview, me, new Promise<void>((parsed) => afterParse(parsed))]).then(
    ([work, _balance, overview, me]) => {
      const user: PaintedUser | null = look ? me : saved;
      // An investor whose phone waits for its code is sent to its confirmation by the app's guards: no cabinet.
      if (work?.enabled !== false || typeof user?.login !== "string" || needsPhoneConfirmation(user)) return shown();
      const boot = document.querySelector("#root > [data-testid='boot']");
      const block = boot?.parentElement && balanceBlock(lng, user, overview?.current ?? null, look);
      if (!boot?.parentElement || !block) return shown();
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
 * language (`templates.tsx`), painted once the page has been read and kept over the app's first renders until a
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

/** As `formatAmount`, or null for an amount it would not take (then nothing is painted). */
function format(amount: unknown, currency: string | undefined, lng: string): string | null {
  if (typeof amount !== "string" || !currency) return null;
  try {
    return formatAmount(amount, currency as Currency, lng);
  } catch {
    return null;
  }
}

/**
 * The cabinet's first render (the build's, for an investor named `{{login}}` with nothing unread and 0 USDT) with the
 * investor's name, figures and unread count, or null when a figure cannot be shown exactly as the app would.
 */
function balanceBlock(lng: string, user: PaintedUser, current: Current | null, look: Look | null): HTMLElement | null {
  const ios = look?.platform === "ios";
  const block = paintTemplate(`cabinet-${lng}-${ios ? "ios" : "base"}`);
  const style = paintTemplate("cabinet-css");
  const label = PAINT.texts[lng]?.total;
  const currency = current?.currency;
  const amounts = {
    "overview-total": current?.total,
    balance: current?.balance,
    "amount-on-deposit": current?.onDeposit,
  };
  const figures = Object.entries(amounts).map(([testId, amount]) => [testId, amount, format(amount, currency, lng)]);
  if (!(block instanceof HTMLElement) || !style || !label || !currency || figures.some(([, , text]) => !text))
    return null;
  const welcome = block.querySelector(".page-welcome");
  // A function, so that a name with `$&` or `$1` in it is written as it is, not read as a replacement pattern.
  const name = shownName(user);
  if (welcome) welcome.textContent = (welcome.textContent ?? "").replace("{{login}}", () => name);
  const hero = block.querySelector(".balance-hero-label");
  if (hero) hero.textContent = label.replace("{{currency}}", currency);
  for (const [testId, amount, text] of figures) {
    const figure = block.querySelector(`[data-testid='${testId}-painted']`);
    figure?.replaceChildren(String(text));
    figure?.setAttribute(PAINTED_ATTRIBUTES.amount, String(amount));
    figure?.setAttribute(PAINTED_ATTRIBUTES.currency, currency);
  }
  // The bell's badge, as `NotificationBell` draws it from the user's count.
  const badge = unreadBadge(user.notifications?.unread ?? 0);
  if (badge) block.querySelector(".notification-bell")?.setAttribute(PAINTED_ATTRIBUTES.count, badge);
  if (look ? look.dark : matchMedia("(prefers-color-scheme: dark)").matches) darken(block);
  // Inside Telegram: the theme's colours, as the app has them by its first render (the safe areas are the page's,
  // `tma/safe-areas.ts`).
  if (look) {
    block.setAttribute(PAINTED_ATTRIBUTES.telegram, look.client);
    for (const [name, value] of Object.entries(look.colors)) block.style.setProperty(name, value);
  }
  // The stylesheets' rules for what it wears go with it.
  block.prepend(style);
  return block;
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
