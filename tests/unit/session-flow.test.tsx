/** The session across screens: logout, a 401 anywhere, and the background refresh of a restored user. */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { refreshCurrentUser } from "@/features/auth/api/session";
import { alertsAtom } from "@/lib/alerts";
import { isSignedInAtom, signIn, TOKEN_COOKIE, USER_STORAGE_KEY, userAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { DEMO_PROFILE, DEMO_USER, type RouteReply, renderApp, stubRoutes } from "./test-utils";

const screenName = () => document.querySelector("[data-screen]")?.getAttribute("data-screen");
const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name='${name}']`);
const FLAG_OFF: RouteReply<"telegramAuthAvailable"> = { body: { available: false } };
const SESSION_TIMEOUT = { status: 401, body: { code: "SESSION_TIMEOUT", message: "Session timed out" } };

afterEach(() => window.history.replaceState(null, "", "/"));

describe("logout", () => {
  it("revokes the token on the server, then forgets the session here and shows login", async () => {
    const fetchMock = stubRoutes({
      telegramAuthAvailable: FLAG_OFF,
      logout: { body: { ok: true } },
    });
    const { router } = await renderApp({ path: "/more", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("more"));
    fireEvent.click(screen.getByTestId("logout"));
    await waitFor(() => expect(screenName()).toBe("login"));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe("/login");
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith("/auth/logout"));
    expect(call?.[1]?.method).toBe("POST");
    expect(new Headers(call?.[1]?.headers).get("Authorization")).toBe("Bearer token-1");
    expect(appStore.get(isSignedInAtom)).toBe(false);
    expect(document.cookie).not.toContain(TOKEN_COOKIE);
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });

  it("signs out here even when the server cannot be reached, without 'Session timed out'", async () => {
    const fetchMock = stubRoutes({
      telegramAuthAvailable: FLAG_OFF,
      logout: SESSION_TIMEOUT,
    });
    await renderApp({ path: "/more", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("more"));
    fireEvent.click(screen.getByTestId("logout"));
    await waitFor(() => expect(screenName()).toBe("login"));
    expect(appStore.get(isSignedInAtom)).toBe(false);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith("/auth/logout"))).toHaveLength(1);
  });
});

describe("a 401 anywhere", () => {
  it("ends the session with 'Session timed out', and after signing in again the user is back where they were", async () => {
    window.history.replaceState(null, "", "/deposits");
    stubRoutes({
      telegramAuthAvailable: FLAG_OFF,
      currentUser: SESSION_TIMEOUT,
      login: { body: { refreshToken: "fresh", user: DEMO_USER, phoneConfirmationRequired: false } },
    });
    const { router } = await renderApp({ path: "/deposits", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("deposits"));

    await act(() => refreshCurrentUser());
    await waitFor(() => expect(screenName()).toBe("login"));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe("/login?next=%2Fdeposits");
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("Session timed out"));
    // The form says it too, after the alert has gone (on a slow phone the alert may end before the
    // login screen has loaded).
    act(() => appStore.set(alertsAtom, []));
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).toContain("Session timed out"));

    fireEvent.change(input("login") as HTMLInputElement, { target: { value: "demo" } });
    fireEvent.change(input("password") as HTMLInputElement, { target: { value: "demo2026pass" } });
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(screenName()).toBe("deposits"));
    expect(router.state.location.pathname).toBe("/deposits");
  });
});

describe("a session timeout keeps what was typed", () => {
  it("prefills the login, and after signing in again the form holds what the user had typed", async () => {
    window.history.replaceState(null, "", "/settings/profile");
    stubRoutes({
      telegramAuthAvailable: FLAG_OFF,
      currentUser: SESSION_TIMEOUT,
      login: { body: { refreshToken: "fresh", user: DEMO_USER, phoneConfirmationRequired: false } },
      userData: { body: DEMO_PROFILE },
    });
    await renderApp({ path: "/settings/profile", user: DEMO_USER });
    await waitFor(() => expect(input("city")).not.toBeNull());
    fireEvent.change(input("city") as HTMLInputElement, { target: { value: "Almaty, Abay Ave 10" } });
    fireEvent.change(input("fullName") as HTMLInputElement, { target: { value: "Aliya N." } });

    await act(() => refreshCurrentUser());
    await waitFor(() => expect(screenName()).toBe("login"));
    expect(input("login")?.value).toBe(DEMO_USER.login);
    expect(sessionStorage.getItem("kassa.draft")).not.toContain("password");

    fireEvent.change(input("password") as HTMLInputElement, { target: { value: "demo2026pass" } });
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(screenName()).toBe("settings"));
    await waitFor(() => expect(input("city")?.value).toBe("Almaty, Abay Ave 10"));
    expect(input("fullName")?.value).toBe("Aliya N.");
    // Used once: a later visit starts from the saved profile again.
    expect(sessionStorage.getItem("kassa.draft")).toBeNull();
  });
});

describe("refreshing a restored user", () => {
  it("replaces the saved user with the server's", async () => {
    stubRoutes({ currentUser: { body: { ...DEMO_USER, fullName: "Renamed Investor", phoneConfirmed: true } } });
    signIn({ refreshToken: "t", user: DEMO_USER });
    await refreshCurrentUser();
    expect(appStore.get(userAtom)?.fullName).toBe("Renamed Investor");
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? "null")?.fullName).toBe("Renamed Investor");
  });

  it("keeps the saved user when the server cannot be reached", async () => {
    stubRoutes({
      currentUser: { status: 503, body: { code: "MAINTENANCE", message: "Technical work is in progress" } },
    });
    signIn({ refreshToken: "t", user: DEMO_USER });
    await refreshCurrentUser();
    expect(appStore.get(userAtom)).toEqual(DEMO_USER);
  });
});
