// Posting an event to the Telegram client: the one way the launcher (before the SDK's code has come) and the SDK
// (its `postEvent`, given at the boot, `tma/boot.ts`) reach it.

interface ClientWindow {
  TelegramWebviewProxy?: { postEvent?: (eventType: string, data: string | undefined) => void };
  external?: { notify?: (data: string) => void };
}

/** Whether the page is in a frame (Telegram Web hosts the app in one). */
function framed(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

/**
 * An event to the client, where and as the SDK's bridge posts it: Telegram Web's frame parent (as JSON), the native
 * clients' proxy, the Windows desktop's `external.notify`. False when there is no client to post to.
 *
 * Not the bridge's own `postEvent`: before each event it looks for the proxy by validating the whole `window`
 * against a schema (valibot's `looseObject`), and a phone's launch posts over a dozen before the cabinet's first
 * screen (docs/telegram.md#the-bridge).
 */
export function postToClient(eventType: string, eventData?: unknown): boolean {
  const client = window as unknown as ClientWindow;
  if (framed()) {
    window.parent.postMessage(JSON.stringify({ eventType, eventData }), "https://web.telegram.org");
    return true;
  }
  if (typeof client.TelegramWebviewProxy?.postEvent === "function") {
    client.TelegramWebviewProxy.postEvent(eventType, JSON.stringify(eventData));
    return true;
  }
  if (typeof client.external?.notify === "function") {
    client.external.notify(JSON.stringify({ eventType, eventData }));
    return true;
  }
  return false;
}
