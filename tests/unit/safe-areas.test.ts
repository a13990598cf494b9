/**
 * The client's safe areas as the layout's CSS variables (`src/tma/safe-areas.ts`), followed once per page: by the
 * launcher when it paints before the app's code, else by the boot, which then finds them followed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

let followSafeAreas: typeof import("@/tma/safe-areas").followSafeAreas;

const client = window as unknown as {
  TelegramWebviewProxy?: unknown;
  Telegram: { WebView: { receiveEvent: (eventType: string, eventData?: unknown) => void } };
};
const root = document.documentElement;
const inset = (name: string) => root.style.getPropertyValue(`--tg-viewport-${name}`);

beforeEach(async () => {
  // A page of its own: no client hooks and no safe areas followed by another file's boot (the unit files share one
  // document and one module graph), and the bridge's listener installed afresh.
  delete (window as { Telegram?: unknown }).Telegram;
  delete root.dataset.tgSafeAreas;
  root.removeAttribute("style");
  vi.resetModules();
  ({ followSafeAreas } = await import("@/tma/safe-areas"));
});

afterEach(() => {
  delete client.TelegramWebviewProxy;
  delete root.dataset.tgSafeAreas;
  root.removeAttribute("style");
});

describe("followSafeAreas", () => {
  it("starts at zero, asks where offered, follows the answers, and is done once per page", () => {
    const postEvent = vi.fn();
    client.TelegramWebviewProxy = { postEvent };
    followSafeAreas((method) => method === "web_app_request_safe_area");
    expect(postEvent.mock.calls.map(([type]) => type)).toEqual(["web_app_request_safe_area"]);
    expect([inset("safe-area-inset-top"), inset("content-safe-area-inset-bottom")]).toEqual(["0px", "0px"]);

    client.Telegram.WebView.receiveEvent("safe_area_changed", { top: 59, bottom: 34, left: 0, right: 0 });
    client.Telegram.WebView.receiveEvent("content_safe_area_changed", { top: 46, bottom: "a lot" });
    expect([inset("safe-area-inset-top"), inset("safe-area-inset-bottom")]).toEqual(["59px", "34px"]);
    // A side that is not a number is not written.
    expect([inset("content-safe-area-inset-top"), inset("content-safe-area-inset-bottom")]).toEqual(["46px", "0px"]);

    // The boot after the launcher: nothing reset, nothing asked again.
    followSafeAreas(() => true);
    expect(postEvent).toHaveBeenCalledTimes(1);
    expect(inset("safe-area-inset-top")).toBe("59px");
  });
});
