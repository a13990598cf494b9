/**
 * The one way an event reaches the Telegram client (`src/tma/client-post.ts`), the launcher's and the SDK's: where
 * and as the SDK's bridge would post it, in its order — a frame's parent first, then the native clients' proxy,
 * then the Windows desktop's `external.notify`; false with no client at all.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { postToClient } from "@/tma/client-post";

type Client = { TelegramWebviewProxy?: unknown; external?: unknown };
const client = window as unknown as Client;
const external = Object.getOwnPropertyDescriptor(window, "external");

afterEach(() => {
  delete client.TelegramWebviewProxy;
  if (external) Object.defineProperty(window, "external", external);
  else delete client.external;
  vi.restoreAllMocks();
});

describe("postToClient", () => {
  it("posts to the native clients' proxy: the event's name, and its data as JSON", () => {
    const postEvent = vi.fn();
    client.TelegramWebviewProxy = { postEvent };
    expect(postToClient("web_app_setup_main_button", { is_visible: true, text: "Einzahlen" })).toBe(true);
    expect(postToClient("web_app_ready")).toBe(true);
    expect(postEvent.mock.calls).toEqual([
      ["web_app_setup_main_button", '{"is_visible":true,"text":"Einzahlen"}'],
      ["web_app_ready", undefined],
    ]);
  });

  it("posts to the desktop's external.notify, the event as JSON, when there is no proxy", () => {
    const notify = vi.fn();
    Object.defineProperty(window, "external", { value: { notify }, configurable: true });
    expect(postToClient("web_app_request_theme")).toBe(true);
    expect(notify.mock.calls).toEqual([[JSON.stringify({ eventType: "web_app_request_theme" })]]);
  });

  it("posts to Telegram Web's page when framed, before any proxy", () => {
    const postEvent = vi.fn();
    client.TelegramWebviewProxy = { postEvent };
    vi.spyOn(window, "top", "get").mockReturnValue({} as Window);
    const postMessage = vi.spyOn(window.parent, "postMessage").mockImplementation(() => undefined);
    expect(postToClient("web_app_expand", { x: 1 })).toBe(true);
    expect(postMessage).toHaveBeenCalledWith(
      JSON.stringify({ eventType: "web_app_expand", eventData: { x: 1 } }),
      "https://web.telegram.org",
    );
    expect(postEvent).not.toHaveBeenCalled();
  });

  it("says so when there is no client to post to", () => {
    Object.defineProperty(window, "external", { value: {}, configurable: true });
    expect(postToClient("web_app_ready")).toBe(false);
  });
});
