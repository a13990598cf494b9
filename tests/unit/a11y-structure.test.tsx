/**
 * What a screen reader hears: headings only where a section starts (never inside a button, a link or a row, where
 * telegram-ui put an `h6` in every Cell's subtitle and every button's label), and the tab bar a navigation landmark
 * whose current tab says so. axe-core in a real browser, in all four languages, is in tests/e2e/fit-and-a11y.test.ts.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aSecuritySettings } from "./fixtures";
import { DEMO_PROFILE, DEMO_USER, renderApp, stubRoutes } from "./test-utils";

afterEach(() => vi.unstubAllGlobals());

const SECURITY = aSecuritySettings({ chatLinked: false });

/** Headings inside something one taps (a button, a link, a row): each as "<control> > <heading>: text". */
function headingsInControls(): string[] {
  const controls = "button, a, [role='button'], [role='link'], [role='tab'], [role='menuitem'], label, li";
  return [...document.querySelectorAll(":is(h1, h2, h3, h4, h5, h6, [role='heading'])")]
    .filter((heading) => heading.parentElement?.closest(controls))
    .map((heading) => {
      const control = heading.parentElement?.closest(controls);
      return `${control?.tagName.toLowerCase()} > ${heading.tagName.toLowerCase()}: ${heading.textContent}`;
    });
}

describe("headings only where a section starts", () => {
  it("Settings: its rows are rows, not headings", async () => {
    stubRoutes({ userData: { body: DEMO_PROFILE }, securitySettings: { body: SECURITY } });
    await renderApp({ path: "/settings", user: DEMO_USER });
    await waitFor(() =>
      expect(document.querySelectorAll("[data-screen='settings'] a[href^='/settings/']").length).toBeGreaterThan(3),
    );
    expect(headingsInControls()).toEqual([]);
    // Every heading left is the screen's title or a section's.
    const levels = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => h.tagName.toLowerCase());
    expect(levels.filter((level) => level === "h1")).toHaveLength(1);
    expect(levels.every((level) => level === "h1" || level === "h2")).toBe(true);
  });

  it("More and the tab bar: links and buttons named by their text, no heading inside", async () => {
    stubRoutes({});
    await renderApp({ path: "/more", user: DEMO_USER });
    await screen.findByTestId("logout");
    expect(headingsInControls()).toEqual([]);
    expect(screen.getByRole("button", { name: "Log out" })).toBe(screen.getByTestId("logout"));
  });
});

describe("the tab bar", () => {
  it("is a navigation landmark whose current tab is marked, and the mark moves with the screen", async () => {
    stubRoutes({ news: { body: [] } });
    const { router } = await renderApp({ path: "/more", user: DEMO_USER });
    const nav = await screen.findByRole("navigation", { name: "Main menu" });
    const tabs = ["cabinet", "refill", "deposits", "withdrawal", "more"].map((key) => screen.getByTestId(`tab-${key}`));
    for (const tab of tabs) expect(nav.contains(tab)).toBe(true);
    const current = () =>
      within(nav)
        .getAllByRole("button")
        .filter((b) => b.getAttribute("aria-current") === "page");
    expect(current().map((b) => b.getAttribute("data-testid"))).toEqual(["tab-more"]);
    fireEvent.click(screen.getByTestId("tab-deposits"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/deposits"));
    await waitFor(() => expect(current().map((b) => b.getAttribute("data-testid"))).toEqual(["tab-deposits"]));
  });
});
