/** The Telegram hooks against a fake bridge, and their silence on the web. */
import { QueryClient, QueryClientProvider, useMutation } from "@tanstack/react-query";
import { AppRoot } from "@telegram-apps/telegram-ui";
import { act, fireEvent, render, renderHook, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FormSkeleton } from "@/components/query-section";
import { setTelegramBridge } from "@/tma/bridge";
import { haptics, useAppearance, useBackButton, useMainButton, useMainButtonShown, useUiPlatform } from "@/tma/hooks";
import { openTelegramLink } from "@/tma/links";
import { DEMO_USER, fakeBridge, renderApp, stubRoutes } from "./test-utils";

afterEach(() => setTelegramBridge(null));

/** A form sent with the Main button through a mutation, as the money forms are; `valid` says what its rules say. */
function MoneyForm({ send, valid }: { send: () => Promise<void>; valid: () => boolean }) {
  const mutation = useMutation({ mutationFn: send });
  useMainButton({
    text: "Send",
    money: true,
    loading: mutation.isPending,
    // As every form does: its own check of `isPending` is as old as the last render.
    onClick: () => {
      if (valid() && !mutation.isPending) mutation.mutate();
    },
  });
  return null;
}

/** A refill form's place: its skeleton while the systems load, then the form with its Main button. */
function RefillPlace({ loaded }: { loaded: boolean }) {
  return (
    <AppRoot platform="base" appearance="light">
      {loaded ? <RefillFormStandIn /> : <FormSkeleton header="New refill" action="Refill" />}
    </AppRoot>
  );
}

function RefillFormStandIn() {
  useMainButton({ text: "Refill", onClick: () => {}, money: true });
  return null;
}

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

  it("the Main button takes text, loader and enabled state, calls back, and hides on unmount", async () => {
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
    fake.pressMain();
    expect(onClick).toHaveBeenCalledTimes(1);
    rerender({ loading: true });
    expect(fake.bridge.mainButton.set).toHaveBeenLastCalledWith({
      text: "Withdraw",
      isEnabled: false,
      isLoaderVisible: true,
      isVisible: true,
    });
    // A press the client delivers while the loader shows does nothing.
    fake.pressMain();
    expect(onClick).toHaveBeenCalledTimes(1);
    unmount();
    await waitFor(() =>
      expect(fake.bridge.mainButton.set).toHaveBeenLastCalledWith({ isVisible: false, isLoaderVisible: false }),
    );
  });

  it("a form's skeleton holds its Main button with the loader; the form taking its place sets it once, never hidden between", async () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    const view = render(<RefillPlace loaded={false} />);
    expect(fake.bridge.mainButton.set).toHaveBeenLastCalledWith({
      text: "Refill",
      isEnabled: false,
      isLoaderVisible: true,
      isVisible: true,
    });
    const before = fake.bridge.mainButton.set.mock.calls.length;
    view.rerender(<RefillPlace loaded />);
    await Promise.resolve();
    expect(fake.bridge.mainButton.set.mock.calls.slice(before).map(([params]) => params)).toEqual([
      { text: "Refill", isEnabled: true, isLoaderVisible: false, isVisible: true },
    ]);
    view.unmount();
  });

  it("a second press while the first one's request is out sends nothing; a press that sends nothing holds nothing", async () => {
    const fake = fakeBridge("weba");
    setTelegramBridge(fake.bridge);
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
    const answers: (() => void)[] = [];
    const send = vi.fn(() => new Promise<void>((resolve) => answers.push(resolve)));
    // What the form's rules say of the input: a refused one sends nothing.
    let valid = true;
    const sent = () => client.getMutationCache().getAll().length;
    const loader = () => fake.bridge.mainButton.set.mock.calls.at(-1)?.[0].isLoaderVisible;
    render(
      <QueryClientProvider client={client}>
        <MoneyForm send={send} valid={() => valid} />
      </QueryClientProvider>,
    );
    // Telegram Web A delivers both presses of a double tap before the loader shows.
    act(() => {
      fake.pressMain();
      fake.pressMain();
    });
    expect(sent()).toBe(1);
    await waitFor(() => expect(loader()).toBe(true));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    act(() => fake.pressMain());
    expect(sent()).toBe(1);
    await act(async () => answers[0]?.());
    await waitFor(() => expect(loader()).toBe(false));
    expect(send).toHaveBeenCalledTimes(1);
    // Answered: the next press sends again.
    act(() => fake.pressMain());
    expect(sent()).toBe(2);
    await waitFor(() => expect(loader()).toBe(true));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    await act(async () => answers[1]?.());
    await waitFor(() => expect(loader()).toBe(false));
    // A press the form's rules refuse sends nothing and holds nothing: the corrected input goes at once.
    valid = false;
    act(() => fake.pressMain());
    valid = true;
    act(() => fake.pressMain());
    expect(sent()).toBe(3);
    await waitFor(() => expect(send).toHaveBeenCalledTimes(3));
    await act(async () => answers[2]?.());
    await waitFor(() => expect(loader()).toBe(false));
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

  it("while a money form shows the Main button, vertical swipes only scroll and the tab bar steps aside", async () => {
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
    await Promise.resolve();
    expect(fake.bridge.setVerticalSwipes).toHaveBeenLastCalledWith(false);
    form.unmount();
    await waitFor(() => expect(fake.bridge.setVerticalSwipes).toHaveBeenLastCalledWith(true));
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
