// The Telegram client's events without the SDK: posting one (the one way the launcher, before the SDK's code has
// come, and the SDK, its `postEvent` given at the boot, reach the client) and asking a question of it, which the
// launcher and the boot's storages share (`token-places.ts`), so that the kept token is read one way.

/** An event from the client: its name and its data. */
export type ClientListener = (eventType: string, eventData: Record<string, unknown> | undefined) => void;

interface ClientWindow {
  TelegramWebviewProxy?: { postEvent?: (eventType: string, data: string | undefined) => void };
  external?: { notify?: (data: string) => void };
  Telegram?: { WebView?: { receiveEvent?: ClientListener } };
}

/** Who waits for an event from the client (`listenToTheClient`). */
let listening: Set<ClientListener> | undefined;

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

/**
 * An event posted to the client and its answer (`match` returns the value once an event is the answer), or
 * `otherwise` when none came in `timeoutMs` or there is no client to post to.
 */
export function askClient<T>(
  eventType: string,
  eventData: unknown,
  match: (eventType: string, eventData: Record<string, unknown> | undefined) => { value: T } | null,
  timeoutMs: number,
  otherwise: T,
): Promise<T> {
  return new Promise((resolve) => {
    const done = (value: T) => {
      stop();
      clearTimeout(timer);
      resolve(value);
    };
    const stop = onClientEvent((type, data) => {
      const found = match(type, data);
      if (found) done(found.value);
    });
    const timer = setTimeout(() => done(otherwise), timeoutMs);
    if (!postToClient(eventType, eventData)) done(otherwise);
  });
}

/** `listener` hears every event from the client from now on, until the function returned is called. */
export function onClientEvent(listener: ClientListener): () => void {
  const listeners = listenToTheClient();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Who waits for the client's events: the native clients call `Telegram.WebView.receiveEvent` (the SDK, loaded
 * later, keeps calling what it finds there), Telegram Web posts them to its frame as JSON strings.
 */
function listenToTheClient(): Set<ClientListener> {
  if (listening) return listening;
  const listeners = new Set<ClientListener>();
  listening = listeners;
  const receive: ClientListener = (eventType, eventData) => {
    for (const listener of listeners) listener(eventType, eventData);
  };
  const client = window as unknown as ClientWindow;
  client.Telegram ??= {};
  client.Telegram.WebView ??= {};
  const webView = client.Telegram.WebView;
  const previous = webView.receiveEvent;
  // Where the SDK's bridge is already there, `receiveEvent` is its accessor, which adds what is set to its own
  // listeners; a plain function found there is kept and called first.
  const composes = typeof Object.getOwnPropertyDescriptor(webView, "receiveEvent")?.set === "function";
  webView.receiveEvent =
    previous && !composes
      ? (eventType, eventData) => {
          previous(eventType, eventData);
          receive(eventType, eventData);
        }
      : receive;
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || typeof event.data !== "string") return;
    try {
      const { eventType, eventData } = JSON.parse(event.data);
      if (typeof eventType === "string") receive(eventType, eventData);
    } catch {
      // Not the client's.
    }
  });
  return listeners;
}
