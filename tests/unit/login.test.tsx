/** The login screen as a user meets it, on the web and inside Telegram; only the network is fake. */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetAutoSignInAttempt } from "@/features/auth/model/telegram-auto-sign-in";
import { isSignedInAtom, TOKEN_COOKIE, USER_STORAGE_KEY, userAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { setTelegramBridge } from "@/tma/bridge";
import { oneSetting } from "./route-stubs";
import { DEMO_USER, fakeBridge, type RouteReply, renderApp, stubRoutes } from "./test-utils";

const screenName = () => document.querySelector("[data-screen]")?.getAttribute("data-screen");
const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name='${name}']`);
const fieldError = (name: string) => document.querySelector(`[data-field-error='${name}']`)?.textContent;
const formError = () => screen.queryByTestId("form-error")?.textContent ?? null;

function type(name: string, value: string) {
  const field = input(name);
  if (!field) throw new Error(`no input ${name}`);
  fireEvent.change(field, { target: { value } });
}

const SESSION = { refreshToken: "new-token", user: DEMO_USER, phoneConfirmationRequired: false };
const FLAG_OFF: RouteReply<"telegramAuthAvailable"> = { body: { available: false } };
const FLAG_ON: RouteReply<"telegramAuthAvailable"> = { body: { available: true } };
const BOT = oneSetting("botUsername", "KassaCabinetBot");

function api(routes: Parameters<typeof stubRoutes>[0]) {
  return stubRoutes({ telegramAuthAvailable: FLAG_OFF, ...routes });
}

/** The API, with `POST /auth/login` answered only when the test says (`answer`), the latest call first. */
function holdLogin() {
  const answers: ((reply: Response) => void)[] = [];
  const fetchMock = api({});
  const stubbed = fetchMock.getMockImplementation();
  fetchMock.mockImplementation((url, init) =>
    String(url).endsWith("/auth/login")
      ? new Promise<Response>((resolve) => {
          answers.unshift(resolve);
        })
      : (stubbed?.(url, init) ?? Promise.resolve(new Response())),
  );
  return { fetchMock, answer: (reply: Response) => answers[0]?.(reply) };
}

const WRONG_PASSWORD = () =>
  new Response(JSON.stringify({ code: "INVALID_CREDENTIALS", message: "Incorrect login or password" }), {
    status: 400,
    headers: { "Content-Type": "application/json" },
  });

const calls = (fetchMock: ReturnType<typeof stubRoutes>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), "http://localhost").pathname === `/api${path}`);

beforeEach(() => resetAutoSignInAttempt());
afterEach(() => setTelegramBridge(null));

describe("login on the web", () => {
  it("says 'Please fill out this field!' next to each empty field and sends nothing", async () => {
    const fetchMock = api({});
    await renderApp({ path: "/login" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(fieldError("login")).toBe("Please fill out this field!"));
    expect(fieldError("password")).toBe("Please fill out this field!");
    expect(calls(fetchMock, "/auth/login")).toHaveLength(0);
    // The error goes once the field is filled and left.
    type("login", "demo");
    fireEvent.blur(input("login") as HTMLInputElement);
    await waitFor(() => expect(fieldError("login")).toBeUndefined());
  });

  it("shows 'Incorrect login or password' and keeps what was typed", async () => {
    api({
      login: { status: 400, body: { code: "INVALID_CREDENTIALS", message: "Incorrect login or password" } },
    });
    await renderApp({ path: "/login" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    type("login", "demo");
    type("password", "wrong-one");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(formError()).toBe("Incorrect login or password"));
    expect(input("login")?.value).toBe("demo");
    expect(input("password")?.value).toBe("wrong-one");
    expect(appStore.get(isSignedInAtom)).toBe(false);
  });

  it("shows 'Repeat the request in a few minutes' when rate-limited", async () => {
    api({
      login: {
        status: 429,
        body: { code: "RATE_LIMITED", message: "Repeat the request in a few minutes", params: { retryAfter: "900" } },
      },
    });
    await renderApp({ path: "/login" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    type("login", "demo");
    type("password", "x");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(formError()).toBe("Repeat the request in a few minutes"));
    expect(input("password")?.value).toBe("x");
  });

  it("says so when there is no connection", async () => {
    const fetchMock = api({});
    const offline = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (url, init) => {
      if (String(url).endsWith("/auth/login")) throw new TypeError("Failed to fetch");
      return offline ? offline(url, init) : new Response();
    });
    await renderApp({ path: "/login" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    type("login", "demo");
    type("password", "demo2026pass");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(formError()).toBe("No connection to the server. Check your internet connection."));
  });

  it("saves the session (token cookie, user in local storage) and goes on to `next`", async () => {
    const fetchMock = api({ login: { body: SESSION } });
    const { router } = await renderApp({ path: "/login?next=%2Fdeposits" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    type("login", "  demo ");
    type("password", "demo2026pass");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(screenName()).toBe("deposits"));
    expect(router.state.location.pathname).toBe("/deposits");
    expect(document.cookie).toContain(`${TOKEN_COOKIE}=new-token`);
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? "null")?.login).toBe("demo");
    const request = calls(fetchMock, "/auth/login")[0]?.[1];
    expect(JSON.parse(String(request?.body))).toEqual({ login: "demo", password: "demo2026pass" });
  });

  it("goes to phone verification when the phone waits for its code", async () => {
    const unconfirmed = { ...DEMO_USER, phoneConfirmed: false };
    api({ login: { body: { ...SESSION, user: unconfirmed, phoneConfirmationRequired: true } } });
    const { router } = await renderApp({ path: "/login?next=%2Frefill" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    type("login", "demo");
    type("password", "demo2026pass");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(screenName()).toBe("phone-verification"));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      "/phone-verification?next=%2Frefill",
    );
  });

  it("offers 'Open in Telegram' (the bot's Mini App) only while Telegram sign-in is on", async () => {
    api({ telegramAuthAvailable: FLAG_ON, setting: BOT });
    await renderApp({ path: "/login" });
    await waitFor(() =>
      expect(screen.getByTestId("open-in-telegram").getAttribute("href")).toBe("https://t.me/KassaCabinetBot?startapp"),
    );
  });

  it("does not offer it when Telegram sign-in is off", async () => {
    api({ setting: BOT });
    await renderApp({ path: "/login" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.queryByTestId("open-in-telegram")).toBeNull();
  });

  it("links to registration and password recovery", async () => {
    api({});
    await renderApp({ path: "/login" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    expect(screen.getByRole("link", { name: /Register/ }).getAttribute("href")).toBe("/register");
    expect(screen.getByRole("link", { name: /Forgot password/ }).getAttribute("href")).toBe("/forgot-password");
  });
});

describe("login inside Telegram", () => {
  it("signs in by itself with the raw init data and lands in the cabinet, without a form", async () => {
    const fake = fakeBridge("android", { rawInitData: "user=%7B%7D&hash=ab" });
    setTelegramBridge(fake.bridge);
    const fetchMock = api({ telegramAuthAvailable: FLAG_ON, telegramAuth: { body: SESSION } });
    const { router } = await renderApp({ path: "/login" });
    await waitFor(() => expect(screenName()).toBe("cabinet"));
    expect(router.state.location.pathname).toBe("/");
    const body = JSON.parse(String(calls(fetchMock, "/auth/telegram")[0]?.[1]?.body));
    expect(body).toEqual({ initData: "user=%7B%7D&hash=ab", language: "en" });
    expect(fake.bridge.haptics.notify).toHaveBeenCalledWith("success");
    expect(appStore.get(userAtom)?.login).toBe("demo");
  });

  it("passes the inviter of the start parameter ref_<login>", async () => {
    setTelegramBridge(fakeBridge("ios", { startParam: "ref_alice" }).bridge);
    const fetchMock = api({ telegramAuthAvailable: FLAG_ON, telegramAuthInvited: { body: SESSION } });
    await renderApp({ path: "/login" });
    await waitFor(() => expect(screenName()).toBe("cabinet"));
    expect(calls(fetchMock, "/auth/telegram/alice")).toHaveLength(1);
    expect(calls(fetchMock, "/auth/telegram")).toHaveLength(0);
  });

  it("stale init data: the form, with what to do (reopen from the bot, or the password), and no Telegram retry", async () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    api({
      telegramAuthAvailable: FLAG_ON,
      telegramAuth: {
        status: 400,
        body: { code: "VERIFICATION_FAILED", message: "Verification error", params: { reason: "expired" } },
      },
    });
    await renderApp({ path: "/login" });
    await waitFor(() => expect(formError()).toMatch(/^Verification error/));
    expect(formError()).toMatch(/open it again from the bot's chat, or sign in with your login and password/);
    expect(input("login")).toBeTruthy();
    // The same init data would be refused again: no button that sends it.
    expect(screen.queryByTestId("telegram-sign-in")).toBeNull();
    expect(fake.bridge.haptics.notify).toHaveBeenCalledWith("error");
  });

  it("another failure falls back to the form with the error shown, and offers to try Telegram again", async () => {
    setTelegramBridge(fakeBridge().bridge);
    api({
      telegramAuthAvailable: FLAG_ON,
      telegramAuth: { status: 429, body: { code: "RATE_LIMITED", message: "Too many requests" } },
    });
    await renderApp({ path: "/login" });
    await waitFor(() => expect(screen.getByTestId("telegram-sign-in")).toBeTruthy());
    expect(input("login")).toBeTruthy();
  });

  it("shows the password form when Telegram sign-in is off, and never calls it", async () => {
    setTelegramBridge(fakeBridge().bridge);
    const fetchMock = api({});
    await renderApp({ path: "/login" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    expect(calls(fetchMock, "/auth/telegram")).toHaveLength(0);
    expect(screen.queryByTestId("open-in-telegram")).toBeNull();
  });

  it("submits with the Main button: its text, its loader while sending, enabled again after a refusal", async () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    const { answer } = holdLogin();
    await renderApp({ path: "/login" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    // Inside Telegram the Main button is the submit; the page has none of its own.
    expect(screen.queryByTestId("submit")).toBeNull();
    expect(fake.bridge.mainButton.set).toHaveBeenLastCalledWith({
      text: "Sign in",
      isEnabled: true,
      isLoaderVisible: false,
      isVisible: true,
    });

    type("login", "demo");
    type("password", "wrong");
    act(() => fake.pressMain());
    await waitFor(() =>
      expect(fake.bridge.mainButton.set).toHaveBeenLastCalledWith(
        expect.objectContaining({ isLoaderVisible: true, isEnabled: false }),
      ),
    );
    await act(async () => answer(WRONG_PASSWORD()));
    await waitFor(() => expect(formError()).toBe("Incorrect login or password"));
    expect(fake.bridge.mainButton.set).toHaveBeenLastCalledWith(
      expect.objectContaining({ isLoaderVisible: false, isEnabled: true, isVisible: true }),
    );
    expect(fake.bridge.haptics.notify).toHaveBeenLastCalledWith("error");
  });

  it("two presses of the Main button in one go (Web A's double tap) send one sign-in", async () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    const { fetchMock, answer } = holdLogin();
    await renderApp({ path: "/login" });
    await waitFor(() => expect(input("login")).toBeTruthy());
    type("login", "demo");
    type("password", "wrong");
    act(() => {
      fake.pressMain();
      fake.pressMain();
    });
    await waitFor(() => expect(calls(fetchMock, "/auth/login")).toHaveLength(1));
    await act(async () => answer(WRONG_PASSWORD()));
    await waitFor(() => expect(formError()).toBe("Incorrect login or password"));
    expect(calls(fetchMock, "/auth/login")).toHaveLength(1);
    // Usable again once the answer is in.
    act(() => fake.pressMain());
    await waitFor(() => expect(calls(fetchMock, "/auth/login")).toHaveLength(2));
  });

  it("after a deliberate sign-out, waits for the user instead of signing straight back in", async () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    const fetchMock = api({
      telegramAuthAvailable: FLAG_ON,
      setting: BOT,
      logout: { body: { ok: true } },
      telegramAuth: { body: SESSION },
    });
    await renderApp({ path: "/more", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("more"));
    fireEvent.click(screen.getByTestId("logout"));
    await waitFor(() => expect(screenName()).toBe("login"));
    await waitFor(() => expect(screen.getByTestId("telegram-sign-in")).toBeTruthy());
    expect(calls(fetchMock, "/auth/telegram")).toHaveLength(0);
    fireEvent.click(screen.getByTestId("telegram-sign-in"));
    await waitFor(() => expect(screenName()).toBe("cabinet"));
  });

  it("after a sign-out, the launch's own init data refused as signed out says to reopen from the bot", async () => {
    setTelegramBridge(fakeBridge().bridge);
    api({
      telegramAuthAvailable: FLAG_ON,
      setting: BOT,
      logout: { body: { ok: true } },
      telegramAuth: {
        status: 400,
        body: { code: "VERIFICATION_FAILED", message: "Verification error", params: { reason: "signed_out" } },
      },
    });
    await renderApp({ path: "/more", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("more"));
    fireEvent.click(screen.getByTestId("logout"));
    await waitFor(() => expect(screen.getByTestId("telegram-sign-in")).toBeTruthy());
    fireEvent.click(screen.getByTestId("telegram-sign-in"));
    await waitFor(() => expect(formError()).toMatch(/open it again from the bot's chat/));
    expect(screen.queryByTestId("telegram-sign-in")).toBeNull();
    expect(input("login")).toBeTruthy();
  });
});
