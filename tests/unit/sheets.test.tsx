/** Sheets own the bottom bar and Back: the hooks' one list of Main buttons and open sheets. */
import { act, render } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setTelegramBridge } from "@/tma/bridge";
import { closeTopSheet, SheetContext, useMainButton, useSheetRegistration } from "@/tma/hooks";
import { fakeBridge } from "./test-utils";

afterEach(() => setTelegramBridge(null));

function FormButton({ text, onClick }: { text: string; onClick(): void }) {
  useMainButton({ text, onClick });
  return null;
}

function TestSheet({ onClose, children }: { onClose(): void; children?: ReactNode }) {
  const id = useSheetRegistration(onClose);
  return <SheetContext.Provider value={id}>{children}</SheetContext.Provider>;
}

describe("sheets", () => {
  it("a screen's Main button hides under a sheet and does not answer; the sheet's own shows; Back closes the top sheet", () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    const screenPress = vi.fn();
    const sheetPress = vi.fn();
    const closeOuter = vi.fn();
    const closeInner = vi.fn();
    const lastBar = () => fake.bridge.mainButton.set.mock.calls.at(-1)?.[0];

    const view = render(<FormButton text="Get the address" onClick={screenPress} />);
    expect(lastBar()).toMatchObject({ text: "Get the address", isVisible: true });

    // A sheet without a form: the bar is empty and a press reaches nobody.
    view.rerender(
      <>
        <FormButton text="Get the address" onClick={screenPress} />
        <TestSheet onClose={closeOuter} />
      </>,
    );
    expect(lastBar()).toEqual({ isVisible: false, isLoaderVisible: false });
    act(() => fake.pressMain());
    expect(screenPress).not.toHaveBeenCalled();
    expect(fake.bridge.setVerticalSwipes).toHaveBeenLastCalledWith(false);

    // A sheet over it with its own form: its button shows and answers.
    view.rerender(
      <>
        <FormButton text="Get the address" onClick={screenPress} />
        <TestSheet onClose={closeOuter}>
          <TestSheet onClose={closeInner}>
            <FormButton text="Exchange" onClick={sheetPress} />
          </TestSheet>
        </TestSheet>
      </>,
    );
    expect(lastBar()).toMatchObject({ text: "Exchange", isVisible: true });
    act(() => fake.pressMain());
    expect(sheetPress).toHaveBeenCalledTimes(1);
    expect(screenPress).not.toHaveBeenCalled();

    // Back closes the top sheet first.
    expect(closeTopSheet()).toBe(true);
    expect(closeInner).toHaveBeenCalledTimes(1);
    expect(closeOuter).not.toHaveBeenCalled();

    // Both gone: the screen's button is back and answers.
    view.rerender(<FormButton text="Get the address" onClick={screenPress} />);
    expect(lastBar()).toMatchObject({ text: "Get the address", isVisible: true });
    act(() => fake.pressMain());
    expect(screenPress).toHaveBeenCalledTimes(1);
    expect(closeTopSheet()).toBe(false);
    view.unmount();
  });
});
