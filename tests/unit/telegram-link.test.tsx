/**
 * Settings → Security for a password account: "Link Telegram" asks the server for a one-time link to
 * the bot; inside Telegram the client opens it, on the web it is a link to tap; back in the app the
 * settings are read again and the channel shows as linked.
 */
import type { SecuritySettings } from "@contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setTelegramBridge } from "@/tma/bridge";
import { aSecuritySettings } from "./fixtures";
import { DEMO_PROFILE, DEMO_USER, fakeBridge, type RouteReply, renderApp, stubRoutes } from "./test-utils";

const UNLINKED = aSecuritySettings({ chatLinked: false });
const LINKED: SecuritySettings = {
  ...UNLINKED,
  channels: [{ channel: "telegram", available: true }, ...UNLINKED.channels.slice(1)],
  chatLinked: true,
};
const LINK = {
  url: "https://t.me/KassaCabinetBot?start=link_0123456789abcdefghijABCDEFGHIJ_-0123456789a",
  expiresInSeconds: 600,
};

afterEach(() => {
  setTelegramBridge(null);
  vi.unstubAllGlobals();
});

const telegramCell = () => document.querySelector<HTMLElement>('[data-section="security"] [data-channel="telegram"]');

describe("settings: linking Telegram to a password account", () => {
  it("on the web: the one-time link is a link to tap, and coming back shows Telegram linked", async () => {
    let security: RouteReply<"securitySettings"> = { body: UNLINKED };
    const made: number[] = [];
    stubRoutes({
      userData: { body: DEMO_PROFILE },
      securitySettings: () => security,
      createTelegramLink: () => {
        made.push(1);
        return { body: LINK };
      },
    });
    await renderApp({ path: "/settings/security", user: DEMO_USER });
    const box = await screen.findByTestId("telegram-link");
    expect(telegramCell()?.textContent).toContain("Not linked");
    expect(box.textContent).toContain("The link works once, for 10\u00a0min.");
    fireEvent.click(within(box).getByRole("button", { name: "Link Telegram" }));
    const open = await within(box).findByRole("link", { name: "Open the bot" });
    expect(open.getAttribute("href")).toBe(LINK.url);
    expect(open.getAttribute("target")).toBe("_blank");
    expect(made).toHaveLength(1);

    // The investor pressed Start in the bot and comes back to the tab.
    security = { body: LINKED };
    await act(async () => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await waitFor(() => expect(telegramCell()?.textContent).toContain("Linked"));
    expect(telegramCell()?.textContent).not.toContain("Not linked");
    expect(screen.queryByTestId("telegram-link")).toBeNull();
  });

  it("inside Telegram the client opens the bot's link itself", async () => {
    const fake = fakeBridge("android");
    setTelegramBridge(fake.bridge);
    stubRoutes({
      userData: { body: DEMO_PROFILE },
      securitySettings: { body: UNLINKED },
      createTelegramLink: { body: LINK },
    });
    await renderApp({ path: "/settings/security", user: DEMO_USER });
    const box = await screen.findByTestId("telegram-link");
    fireEvent.click(within(box).getByRole("button", { name: "Link Telegram" }));
    await waitFor(() => expect(fake.bridge.openTelegramLink).toHaveBeenCalledWith(LINK.url));
    expect(within(box).queryByRole("link")).toBeNull();
  });

  it("an account linked already is offered no link", async () => {
    stubRoutes({ userData: { body: DEMO_PROFILE }, securitySettings: { body: LINKED } });
    await renderApp({ path: "/settings/security", user: DEMO_USER });
    await waitFor(() => expect(telegramCell()?.textContent).toContain("Linked"));
    expect(screen.queryByTestId("telegram-link")).toBeNull();
  });
});
