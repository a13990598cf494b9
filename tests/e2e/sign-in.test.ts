/**
 * The sign-in slice end to end, in Chromium against the real server: registration through a referral
 * link with the phone code from the development outbox, login failures and the rate limit, the password
 * reset, Telegram sign-in in the simulated client, and a session that times out. The main flows run
 * in two languages.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { apiReply } from "./support/api";
import {
  base,
  codeFromOutbox,
  fill,
  PASSWORD,
  registerThroughUi,
  screen,
  signInWithPassword,
  signUpThroughApi,
  submit,
  uniqueLogin,
} from "./support/app";
import { phoneContext } from "./support/browser";
import { type Lng, text } from "./support/locales";
import { launchHash, newTelegramUser, signedInitData, waitForPosted } from "./support/telegram-client";
import { setTelegramSignIn, telegramFile, telegramPhone } from "./support/telegram-file";

let browser: Browser;

telegramFile((shared) => {
  browser = shared;
});

const bodyText = (page: Page) => page.locator("body").innerText();

/** A phone in `lng` per language, shared by the file's web tests one after another (`newPage`). */
const phones = new Map<Lng, { context: BrowserContext; page: Page }>();

/**
 * The phone in `lng` as a visitor nobody has signed in on: its cookies and the app's storage cleared (the language
 * put back by the context's script at the next load). The test's first `goto` opens its screen afresh.
 */
async function newPage(lng: Lng) {
  let phone = phones.get(lng);
  if (!phone) {
    const context = await phoneContext(browser, { locale: lng === "en" ? "en-US" : `${lng}-${lng.toUpperCase()}` });
    await context.addInitScript((l) => localStorage.setItem("kassa.language", l), lng);
    phone = { context, page: await context.newPage() };
    phones.set(lng, phone);
  }
  await phone.context.clearCookies();
  if (phone.page.url().startsWith(base()))
    await phone.page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
  return phone;
}

describe.each(["en", "ru"] as const)("sign-in flows in %s", (lng) => {
  it("registers through a referral link, confirms the phone with the code, and lands in the cabinet", async () => {
    const { page } = await newPage(lng);
    const login = await registerThroughUi(page, "demo");
    await expect.poll(() => page.locator("[data-testid='welcome']").innerText()).toContain("Ada Investor");
    // The session survives a reload.
    await page.reload();
    await screen(page, "cabinet");
    expect(login).toMatch(/^e2e/);
  });

  it("shows the registration rules next to the fields and keeps what was typed", async () => {
    const { page } = await newPage(lng);
    await page.goto(`${base()}/register/demo`);
    await screen(page, "register");
    await fill(page, "login", "ab");
    await fill(page, "email", "not-an-email");
    await fill(page, "phone", "8 701 000");
    await fill(page, "password", "password1");
    await fill(page, "passwordRepeat", "password2");
    await submit(page);
    const fieldError = (name: string) => page.locator(`[data-field-error='${name}']`).first().innerText();
    await expect.poll(() => fieldError("login")).toBe(text(lng, "validation", "loginTooShort"));
    await expect.poll(() => fieldError("fullName")).toBe(text(lng, "validation", "required"));
    await expect.poll(() => fieldError("email")).toBe(text(lng, "validation", "emailInvalid"));
    await expect.poll(() => fieldError("phone")).toBe(text(lng, "validation", "phoneFormat"));
    await expect.poll(() => fieldError("password")).toBe(text(lng, "validation", "passwordTooSimple"));
    expect(await page.locator("input[name='login']").inputValue()).toBe("ab");
    expect(await page.locator("input[name='phone']").inputValue()).toBe("8 701 000");
  });

  it("refuses a wrong password with the catalogue's message and keeps the login typed", async () => {
    const { page } = await newPage(lng);
    await signInWithPassword(page, "demo", "WrongPass2026");
    await expect
      .poll(() => page.locator("[data-testid='form-error']").innerText())
      .toBe(text(lng, "errors", "INVALID_CREDENTIALS"));
    expect(await page.locator("input[name='login']").inputValue()).toBe("demo");
  });

  it("resets a forgotten password with the code and signs in with the new one", async () => {
    const { page } = await newPage(lng);
    // A new investor, made through the API (registering through the UI is the first test's subject).
    const { login } = await signUpThroughApi("demo", lng);

    await page.goto(`${base()}/forgot-password`);
    await screen(page, "forgot-password");
    await fill(page, "login", login);
    await submit(page);
    await page.locator("form[data-step='code']").waitFor();
    await expect.poll(() => bodyText(page)).toContain(text(lng, "success", "CODE_SENT"));
    await fill(page, "code", await codeFromOutbox(login, "password_reset"));
    await submit(page);
    await page.locator("form[data-step='password']").waitFor();
    const newPassword = "Harbor2027go";
    await fill(page, "password", newPassword);
    await fill(page, "passwordRepeat", newPassword);
    await submit(page);
    await screen(page, "login");

    await signInWithPassword(page, login, PASSWORD);
    await expect
      .poll(() => page.locator("[data-testid='form-error']").innerText())
      .toBe(text(lng, "errors", "INVALID_CREDENTIALS"));
    await signInWithPassword(page, login, newPassword);
    await screen(page, "cabinet");
  });
});

describe("limits and sessions", () => {
  it("answers the sixth wrong password in a row with the rate-limit message", async () => {
    const { page } = await newPage("en");
    const login = uniqueLogin("nobody");
    await page.goto(`${base()}/login`);
    await screen(page, "login");
    await fill(page, "login", login);
    for (let i = 0; i < 5; i++) {
      await fill(page, "password", `Wrong${i}pass`);
      await submit(page);
      await expect
        .poll(() => page.locator("[data-testid='form-error']").innerText())
        .toBe(text("en", "errors", "INVALID_CREDENTIALS"));
    }
    await fill(page, "password", "Wrong6pass");
    await submit(page);
    await expect
      .poll(() => page.locator("[data-testid='form-error']").innerText())
      .toBe(text("en", "errors", "RATE_LIMITED"));
  });

  it("ends a revoked session with 'Session timed out' and returns the user where they were", async () => {
    const { context, page } = await newPage("en");
    await signInWithPassword(page, "demo", "demo2026pass", "/operations");
    await screen(page, "operations");
    // The session is revoked elsewhere (a logout from another device with the same token).
    const token = (await context.cookies()).find((c) => c.name === "kassa_token")?.value;
    expect(token).toBeTruthy();
    expect((await apiReply("logout", { token })).status).toBe(200);

    await page.reload();
    await screen(page, "login");
    await expect.poll(() => bodyText(page)).toContain(text("en", "errors", "SESSION_TIMEOUT"));
    expect(new URL(page.url()).searchParams.get("next")).toBe("/operations");
    expect((await context.cookies()).find((c) => c.name === "kassa_token")).toBeUndefined();

    await fill(page, "login", "demo");
    await fill(page, "password", "demo2026pass");
    await submit(page);
    await screen(page, "operations");
  });
});

describe("Telegram sign-in (simulated client)", () => {
  it("signs in automatically, without a form, when Telegram sign-in is available", async () => {
    await setTelegramSignIn(true);
    const { context, page } = await telegramPhone(browser);
    const user = newTelegramUser(800_000_000, (id) => ({
      first_name: "Timur",
      last_name: "Investor",
      username: `tg${id}user`,
      language_code: "kk",
    }));
    const initData = signedInitData(user, { startParam: "ref_demo" });
    await page.goto(`${base()}/${launchHash({ initData, startParam: "ref_demo" })}`);
    await screen(page, "cabinet", 20_000);
    expect(await page.locator("input[name='password']").count()).toBe(0);
    await waitForPosted(page, "web_app_ready");
    // With no saved choice, the Telegram user's language is the interface language.
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("kk");
    await context.close();
  });

  it("shows the password form inside Telegram when Telegram sign-in is off", async () => {
    await setTelegramSignIn(false);
    const { context, page } = await telegramPhone(browser);
    await page.goto(`${base()}/${launchHash({ user: { id: 900001, first_name: "Off", username: "offuser" } })}`);
    await screen(page, "login");
    await page.locator("input[name='password']").waitFor();
    await setTelegramSignIn(true);
    await context.close();
  });
});
