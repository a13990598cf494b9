/** The shell as a user meets it: screens, guards, navigation, maintenance, alerts. */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { alerts } from "@/lib/alerts";
import { isSignedInAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { oneSetting } from "./route-stubs";
import { DEMO_USER, renderApp, stubRoutes } from "./test-utils";

const screenName = () => document.querySelector("[data-screen]")?.getAttribute("data-screen");

describe("login screen", () => {
  it("shows the product, what it is, the sign-in form, the links and the language switcher", async () => {
    stubRoutes({});
    await renderApp({ path: "/login" });
    await waitFor(() => expect(screenName()).toBe("login"));
    expect(screen.getByRole("heading", { name: "Kassa" })).toBeTruthy();
    expect(screen.getByText(/Your investor cabinet/)).toBeTruthy();
    expect(document.querySelector("input[name='login']")).toBeTruthy();
    expect(document.querySelector("input[name='password']")).toBeTruthy();
    expect(screen.getByTestId("submit").textContent).toContain("Sign in");
    expect(screen.getByRole("link", { name: /Register/ }).getAttribute("href")).toBe("/register");
    expect(screen.getByRole("link", { name: /Forgot password/ }).getAttribute("href")).toBe("/forgot-password");
    expect(screen.getByText("Русский")).toBeTruthy();
  });

  it("switches the language", async () => {
    stubRoutes({});
    await renderApp({ path: "/login" });
    await waitFor(() => expect(screenName()).toBe("login"));
    fireEvent.click(screen.getByText("Deutsch"));
    await waitFor(() => expect(screen.getByText("Passwort vergessen?")).toBeTruthy());
    expect(document.documentElement.lang).toBe("de");
  });
});

describe("guards", () => {
  it("send a signed-out visitor of a cabinet screen to /login?next=<path>", async () => {
    stubRoutes({});
    const { router } = await renderApp({ path: "/deposits" });
    await waitFor(() => expect(screenName()).toBe("login"));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe("/login?next=%2Fdeposits");
  });

  it("send a signed-in user from /login to the cabinet", async () => {
    stubRoutes({});
    const { router } = await renderApp({ path: "/login", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("cabinet"));
    expect(router.state.location.pathname).toBe("/");
    expect(screen.getByText("Welcome, Demo Investor")).toBeTruthy();
  });
});

describe("cabinet", () => {
  it("shows a cabinet screen inside the frame, with the tab bar on a phone", async () => {
    stubRoutes({ news: { body: [] } });
    await renderApp({ path: "/news", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("news"));
    expect(await screen.findByText("No news yet")).toBeTruthy();
    for (const tab of ["cabinet", "refill", "deposits", "withdrawal", "more"]) {
      expect(screen.getByTestId(`tab-${tab}`)).toBeTruthy();
    }
  });

  it("keeps its frame from one screen to the next: only the screen is replaced", async () => {
    stubRoutes({ news: { body: [] }, setting: oneSetting("botUsername", "kassa_bot") });
    const { router } = await renderApp({ path: "/news", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("news"));
    const tabBar = screen.getByTestId("tab-bar");
    act(() => router.navigate("/more"));
    await waitFor(() => expect(screenName()).toBe("more"));
    expect(screen.getByTestId("tab-bar")).toBe(tabBar);
  });

  it("More lists the other sections, the chat bot and logout; logout signs out and returns to login", async () => {
    stubRoutes({ setting: oneSetting("botUsername", "kassa_bot") });
    const { router } = await renderApp({ path: "/more", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("more"));
    for (const name of ["Partners", "Operations", "Settings", "News"]) {
      expect(screen.getByRole("link", { name: new RegExp(name) })).toBeTruthy();
    }
    await waitFor(() => expect(screen.getByTestId("bot-link").getAttribute("href")).toBe("https://t.me/kassa_bot"));
    fireEvent.click(screen.getByTestId("logout"));
    await waitFor(() => expect(screenName()).toBe("login"));
    expect(router.state.location.pathname).toBe("/login");
    expect(appStore.get(isSignedInAtom)).toBe(false);
  });
});

describe("registration", () => {
  it("shows the inviter from the path", async () => {
    stubRoutes({});
    await renderApp({ path: "/register/alice" });
    await waitFor(() => expect(screen.getByTestId("inviter").textContent).toContain("alice"));
    expect(document.querySelector("form input[name='fullName']")).toBeTruthy();
  });

  it("shows the default inviter without a referral", async () => {
    stubRoutes({ setting: oneSetting("defaultInviter", "kassa") });
    await renderApp({ path: "/register" });
    await waitFor(() => expect(screen.getByTestId("inviter").textContent).toContain("kassa"));
  });
});

describe("maintenance", () => {
  it("replaces the whole app while on, with the operator's note in the current language", async () => {
    stubRoutes({
      technicalWork: {
        body: {
          enabled: true,
          message: { en: "Upgrading the ledger", ru: "Обновляем", de: "Aktualisierung", kk: "Жаңарту" },
          until: "2030-05-01T10:00:00Z",
        },
      },
    });
    await renderApp({ path: "/login" });
    await waitFor(() => expect(screenName()).toBe("maintenance"));
    expect(screen.getByText("Maintenance")).toBeTruthy();
    expect(screen.getByText("Upgrading the ledger")).toBeTruthy();
    expect(screen.getByTestId("maintenance-until").textContent).toMatch(/2030/);
  });

  it("gives the app back by itself when the flag goes off", async () => {
    let enabled = true;
    stubRoutes({ technicalWork: () => ({ body: { enabled, message: null, until: null } }) });
    const { queryClient } = await renderApp({ path: "/login" });
    await waitFor(() => expect(screenName()).toBe("maintenance"));
    enabled = false;
    await act(() => queryClient.refetchQueries({ queryKey: ["settings", "technical_work"] }));
    await waitFor(() => expect(screenName()).toBe("login"));
  });
});

describe("alerts", () => {
  it("show a queued alert in the current language", async () => {
    stubRoutes({});
    await renderApp({ path: "/login" });
    await waitFor(() => expect(screenName()).toBe("login"));
    act(() => {
      alerts.error("RATE_LIMITED");
    });
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("Repeat the request in a few minutes"));
  });
});
