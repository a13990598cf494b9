/**
 * The one way an event reaches the Telegram client (`src/tma/client-events.ts`), the launcher's and the SDK's: where
 * and as the SDK's bridge would post it, in its order — a frame's parent first, then the native clients' proxy,
 * then the Windows desktop's `external.notify`; false with no client at all.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { postToClient } from "@/tma/client-events";

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

type WebView = { receiveEvent?: (eventType: string, eventData?: unknown) => void };
const telegram = window as unknown as { Telegram?: { WebView?: WebView } };

describe("askClient", () => {
  let askClient: typeof import("@/tma/client-events").askClient;
  beforeEach(async () => {
    // A page of its own: no client hooks left by another file (the unit files share one document and one module
    // graph), and the listener installed afresh on the first question.
    delete telegram.Telegram;
    vi.resetModules();
    ({ askClient } = await import("@/tma/client-events"));
  });

  it("hears the client's answer through Telegram.WebView.receiveEvent, the SDK's composing accessor left working", async () => {
    // As the SDK's bridge installs it: an accessor whose setter adds a listener to its own.
    const sdkHeard: string[] = [];
    const composed: ((eventType: string, eventData?: unknown) => void)[] = [(type) => sdkHeard.push(type)];
    const webView = {};
    Object.defineProperty(webView, "receiveEvent", {
      configurable: true,
      get: () => (eventType: string, eventData?: unknown) => {
        for (const listener of composed) listener(eventType, eventData);
      },
      set: (listener) => composed.push(listener),
    });
    telegram.Telegram = { WebView: webView };
    const postEvent = vi.fn();
    client.TelegramWebviewProxy = { postEvent };
    const asked = askClient(
      "web_app_secure_storage_get_key",
      { req_id: "r1", key: "k" },
      (type, data) => (type === "secure_storage_key_received" && data?.req_id === "r1" ? { value: data.value } : null),
      5_000,
      "none",
    );
    expect(postEvent).toHaveBeenCalledWith("web_app_secure_storage_get_key", '{"req_id":"r1","key":"k"}');
    const receive = (webView as WebView).receiveEvent;
    receive?.("secure_storage_key_received", { req_id: "other", value: "not ours" });
    receive?.("secure_storage_key_received", { req_id: "r1", value: "token" });
    await expect(asked).resolves.toBe("token");
    // Each event reached the SDK once (no listener calls the composer back).
    expect(sdkHeard).toEqual(["secure_storage_key_received", "secure_storage_key_received"]);
  });

  it("answers `otherwise` once the client has been silent for the wait, and at once with no client", async () => {
    vi.useFakeTimers();
    try {
      client.TelegramWebviewProxy = { postEvent: vi.fn() };
      const silent = askClient("web_app_request_safe_area", undefined, () => ({ value: "heard" }), 400, "silent");
      vi.advanceTimersByTime(400);
      await expect(silent).resolves.toBe("silent");
      delete client.TelegramWebviewProxy;
      Object.defineProperty(window, "external", { value: {}, configurable: true });
      await expect(askClient("web_app_ready", undefined, () => ({ value: 1 }), 60_000, 0)).resolves.toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("hears Telegram Web's answers posted to the frame as JSON, from the parent only", async () => {
    vi.spyOn(window, "top", "get").mockReturnValue({} as Window);
    vi.spyOn(window.parent, "postMessage").mockImplementation(() => undefined);
    const asked = askClient(
      "web_app_request_theme",
      undefined,
      (type, data) => (type === "theme_changed" ? { value: data?.theme_params } : null),
      5_000,
      null,
    );
    const answer = JSON.stringify({ eventType: "theme_changed", eventData: { theme_params: { bg_color: "#000000" } } });
    window.dispatchEvent(new MessageEvent("message", { data: answer, source: null }));
    window.dispatchEvent(new MessageEvent("message", { data: "not json", source: window.parent }));
    window.dispatchEvent(new MessageEvent("message", { data: answer, source: window.parent }));
    await expect(asked).resolves.toEqual({ bg_color: "#000000" });
  });
});
