/** The Telegram hooks against a fake bridge, and their silence on the web. */
import { act, fireEvent, renderHook, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setTelegramBridge } from "@/tma/bridge";
import {
  haptics,
  openTelegramLink,
  useAppearance,
  useBackButton,
  useMainButton,
  useMainButtonShown,
  useUiPlatform,
} from "@/tma/hooks";
import { DEMO_USER, fakeBridge, renderApp, stubRoutes } from "./test-utils";

afterEach(() => setTelegramBridge(null));

describe("outside Telegram", () => {
  it("the hooks and helpers do nothing, and links open in a new tab", () => {
    const open = vi.spyOn(window, "open").mockImplementation(() => null);
    haptics.notify("success");
    haptics.impact();
    haptics.selection();
    const { result } = renderHook(() => useMainButton({ text: "Send", onClick: () => {} }));
    expect(result.current).toBe(false);
    renderHook(() => useBackButton(true, () => {}));
    openTelegramLink("https://t.me/kassa_bot");
    expect(open).toHaveBeenCalledWith("https://t.me/kassa_bot", "_blank", "noopener,noreferrer");
    expect(renderHook(() => useUiPlatform()).result.current).toBe("base");
  });
});

describe("inside Telegram", () => {
  it("the appearance follows the theme live", () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    const { result } = renderHook(() => useAppearance());
    expect(result.current).toBe("light");
    act(() => fake.setAppearance("dark"));
    expect(result.current).toBe("dark");
  });

  it("iOS and macOS clients get the iOS look", () => {
    setTelegramBridge(fakeBridge("macos").bridge);
    expect(renderHook(() => useUiPlatform()).result.current).toBe("ios");
  });

  it("the Main button takes text, loader and enabled state, calls back, and hides on unmount", () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    const onClick = vi.fn();
    const { result, rerender, unmount } = renderHook(
      (props: { loading: boolean }) => useMainButton({ text: "Withdraw", onClick, loading: props.loading }),
      { initialProps: { loading: false } },
    );
    expect(result.current).toBe(true);
    expect(fake.bridge.mainButton.set).toHaveBeenLastCalledWith({
      text: "Withdraw",
      isEnabled: true,
      isLoaderVisible: false,
      isVisible: true,
    });
    rerender({ loading: true });
    expect(fake.bridge.mainButton.set).toHaveBeenLastCalledWith({
      text: "Withdraw",
      isEnabled: false,
      isLoaderVisible: true,
      isVisible: true,
    });
    fake.pressMain();
    expect(onClick).toHaveBeenCalledTimes(1);
    unmount();
    expect(fake.bridge.mainButton.set).toHaveBeenLastCalledWith({ isVisible: false, isLoaderVisible: false });
  });

  it("a Main button that is no money form's (a list's action, a profile form) leaves vertical swipes on", () => {
    const fake = fakeBridge("ios");
    setTelegramBridge(fake.bridge);
    const list = renderHook(() => useMainButton({ text: "Open a deposit", onClick: () => {} }));
    const profile = renderHook(() => useMainButton({ text: "Save", onClick: () => {} }));
    expect(fake.bridge.setVerticalSwipes).not.toHaveBeenCalledWith(false);
    profile.unmount();
    list.unmount();
  });

  it("while a money form shows the Main button, vertical swipes only scroll and the tab bar steps aside", () => {
    const fake = fakeBridge("ios");
    setTelegramBridge(fake.bridge);
    const shown = renderHook(() => useMainButtonShown());
    expect(shown.result.current).toBe(false);
    const form = renderHook(() => useMainButton({ text: "Deposit", onClick: () => {}, money: true }));
    expect(fake.bridge.setVerticalSwipes).toHaveBeenLastCalledWith(false);
    shown.rerender();
    expect(shown.result.current).toBe(true);
    // A second form (a dialog over a screen) keeps them off until both are gone.
    const dialog = renderHook(() => useMainButton({ text: "Exchange", onClick: () => {}, money: true }));
    dialog.unmount();
    expect(fake.bridge.setVerticalSwipes).toHaveBeenLastCalledWith(false);
    form.unmount();
    expect(fake.bridge.setVerticalSwipes).toHaveBeenLastCalledWith(true);
    shown.rerender();
    expect(shown.result.current).toBe(false);
  });

  it("haptics and t.me links go through Telegram", () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    haptics.notify("error");
    haptics.impact("medium");
    openTelegramLink("https://t.me/kassa_bot");
    expect(fake.bridge.haptics.notify).toHaveBeenCalledWith("error");
    expect(fake.bridge.haptics.impact).toHaveBeenCalledWith("medium");
    expect(fake.bridge.openTelegramLink).toHaveBeenCalledWith("https://t.me/kassa_bot");
  });

  it("the Back button shows below the top level and goes back; the first screen reports ready", async () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    stubRoutes({});
    const { router } = await renderApp({ path: "/more", user: DEMO_USER });
    await waitFor(() => expect(document.querySelector("[data-screen='more']")).toBeTruthy());
    expect(fake.bridge.ready).toHaveBeenCalled();
    expect(fake.bridge.backButton.setVisible).toHaveBeenLastCalledWith(false);

    fireEvent.click(screen.getByRole("link", { name: /Partners/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/partners"));
    await waitFor(() => expect(fake.bridge.backButton.setVisible).toHaveBeenLastCalledWith(true));

    act(() => fake.pressBack());
    await waitFor(() => expect(router.state.location.pathname).toBe("/more"));
    await waitFor(() => expect(fake.bridge.backButton.setVisible).toHaveBeenLastCalledWith(false));
  });

  it("Back from a screen opened directly goes to its parent", async () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    stubRoutes({});
    const { router } = await renderApp({ path: "/register/alice" });
    await waitFor(() => expect(document.querySelector("[data-screen='register']")).toBeTruthy());
    expect(fake.bridge.backButton.setVisible).toHaveBeenLastCalledWith(true);
    act(() => fake.pressBack());
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });
});
