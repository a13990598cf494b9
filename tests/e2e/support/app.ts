/** Small helpers for driving the app the way a user does. */
import type { Language } from "@contract";
import type { Frame, Page } from "playwright-core";
import { apiCall } from "./api";
import { base } from "./worker-server";

export { base, e2eServer } from "./worker-server";

/** Waits for the screen `name`, in a page or in a frame (the app inside Telegram Web's iframe). */
export async function screen(page: Page | Frame, name: string, timeout = 15_000) {
  await page.locator(`[data-screen='${name}']`).first().waitFor({ state: "visible", timeout });
}

/** The password of every investor the tests register. */
export const PASSWORD = "Ledger2026go";

/** A login nobody has used yet in this run. */
export function uniqueLogin(prefix = "e2e") {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** A phone number nobody has used yet in this run. */
export function uniquePhone() {
  return `+7${String(Date.now()).slice(-9)}${Math.floor(Math.random() * 10)}`;
}

/** The newest code the development outbox holds for a login and purpose. */
export async function codeFromOutbox(login: string, purpose: "phone" | "password_reset" | "withdrawal" | "wallet") {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${base()}/api/dev/outbox?login=${encodeURIComponent(login)}&purpose=${purpose}`);
    const items = (await res.json()) as { code: string }[];
    const code = items[0]?.code;
    if (code && /^\d{6}$/.test(code)) return code;
    if (Date.now() > deadline) throw new Error(`No ${purpose} code for ${login} in the outbox`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Fills a named input of the current form. */
export async function fill(page: Page, name: string, value: string) {
  await page.locator(`input[name='${name}']`).first().fill(value);
}

export async function submit(page: Page) {
  await page.locator("[data-testid='submit']").first().click();
}

/** Signs in through the login form and waits for the cabinet. */
export async function signInWithPassword(page: Page, login: string, password: string, next = "/") {
  await page.goto(`${base()}/login${next === "/" ? "" : `?next=${encodeURIComponent(next)}`}`);
  await screen(page, "login");
  await fill(page, "login", login);
  await fill(page, "password", password);
  await submit(page);
}

export interface ApiSession {
  login: string;
  token: string;
  user: unknown;
}

/**
 * A new investor made through the API itself (registration, then the phone code from the outbox), for
 * tests whose subject is not sign-in.
 */
export async function signUpThroughApi(inviter = "demo", language: Language = "en"): Promise<ApiSession> {
  const login = uniqueLogin("inv");
  const password = PASSWORD;
  const reply = await apiCall("register", {
    params: { inviter },
    body: {
      login,
      fullName: "Mira Ledger",
      email: `${login}@example.com`,
      phone: uniquePhone(),
      password,
      passwordRepeat: password,
      acceptTerms: true,
      language,
    },
  });
  const token = reply.refreshToken;
  const confirmed = await apiCall("phoneConfirm", { body: { code: await codeFromOutbox(login, "phone") }, token });
  return { login, token, user: confirmed.user };
}

/**
 * A Telegram user's session made through the API, as the Mini App makes it with its init data
 * (`POST /auth/telegram`; the account is created on the first call). The same init data signed in again (the
 * app in its frame) gets this same session back.
 */
export async function telegramSessionThroughApi(initData: string): Promise<ApiSession> {
  const reply = await apiCall("telegramAuth", { body: { initData } });
  return { login: reply.user.login, token: reply.refreshToken, user: reply.user };
}

/** A new investor registered on the web, whose phone still waits for its code (`phoneConfirmed` false). */
export async function phonePendingSession() {
  const login = uniqueLogin("pend");
  const registered = await apiCall("register", {
    params: { inviter: "demo" },
    body: {
      ...{ login, fullName: "Mira Ledger", email: `${login}@example.com`, phone: uniquePhone() },
      ...{ password: PASSWORD, passwordRepeat: PASSWORD, acceptTerms: true, language: "en" },
    },
  });
  return { login, token: registered.refreshToken, user: registered.user };
}

/** Puts an API session into a browser context the way the app keeps it (cookie + saved user). */
export async function useSession(context: import("playwright-core").BrowserContext, session: ApiSession) {
  await context.addCookies([{ name: "kassa_token", value: session.token, url: base() }]);
  await context.addInitScript((u) => localStorage.setItem("kassa.user", JSON.stringify(u)), session.user);
}

/**
 * Opens `path` afresh in `page` with the interface language `lng` saved as the switcher saves it. On the page's first
 * load (nothing of the app's origin open in it yet) the choice is put in by a script that runs in that document only.
 */
export async function gotoInLanguage(page: Page, path: string, lng: string) {
  const first = page.url().startsWith(base())
    ? undefined
    : await page.addInitScript((l) => localStorage.setItem("kassa.language", l), lng);
  if (!first) await page.evaluate((l) => localStorage.setItem("kassa.language", l), lng);
  try {
    return await page.goto(`${base()}${path}`);
  } finally {
    await first?.dispose();
  }
}

/** Registers a new investor through `/register/<inviter>` in the UI and confirms the phone; returns the login. */
export async function registerThroughUi(page: Page, inviter: string) {
  await page.goto(`${base()}/register/${inviter}`);
  await screen(page, "register");
  // The screen names who invites.
  await page.locator("[data-testid='inviter']").filter({ hasText: inviter }).waitFor({ timeout: 10_000 });
  return completeRegistration(page);
}

/** On the registration screen: fills in a new investor, registers, confirms the phone; returns the login. */
export async function completeRegistration(page: Page) {
  const login = uniqueLogin();
  await fill(page, "login", login);
  await fill(page, "fullName", "Ada Investor");
  await fill(page, "email", `${login}@example.com`);
  await fill(page, "phone", uniquePhone());
  await fill(page, "password", PASSWORD);
  await fill(page, "passwordRepeat", PASSWORD);
  await page.locator("input[name='acceptTerms']").check({ force: true });
  await submit(page);
  await screen(page, "phone-verification");
  await fill(page, "code", await codeFromOutbox(login, "phone"));
  await submit(page);
  await screen(page, "cabinet");
  return login;
}

/**
 * Marks the user's notifications read, as if they had been seen elsewhere, so the notification dialog
 * (which opens for unread ones) does not cover a screen whose subject is something else.
 */
export async function readNotifications(token: string) {
  await apiCall("readNotifications", { body: {}, token });
}

/** The demo investor (`npm start`'s seed) signed in through the API. */
export async function demoSession(): Promise<ApiSession> {
  const { refreshToken, user } = await apiCall("login", { body: { login: "demo", password: "demo2026pass" } });
  return { login: "demo", token: refreshToken, user };
}
