/**
 * Is this a launch from Telegram? Answered cheaply, without the SDK, so the web fallback never downloads
 * it: a Telegram client puts launch parameters (`tgWebAppPlatform`, `tgWebAppData`, ...) in the URL hash;
 * after a reload or an in-app navigation they are gone from the URL, so they are kept in sessionStorage
 * (as the SDK also does, under `tapps/launchParams`, a JSON string of the query).
 */

/** Where `@telegram-apps/sdk` keeps the launch parameters for the rest of the session. */
export const SDK_LAUNCH_PARAMS_KEY = "tapps/launchParams";
/**
 * The app's own copy of the launch parameters as the client sent them. The SDK keeps its copy only
 * when it accepts every parameter; this one survives a reload either way, init data included.
 */
export const LAUNCH_PARAMS_STORAGE_KEY = "kassa.tgLaunch";
/** `?tgDevMock=1`: the development switch (see `boot.ts`). */
const DEV_MOCK_QUERY_PARAM = "tgDevMock";
/** The development switch is kept for the session, as the launch parameters are. */
export const DEV_MOCK_STORAGE_KEY = "kassa.tgDevMock";

export interface TelegramLaunch {
  /** The launch parameters as the client sent them. */
  params: URLSearchParams;
  /** `ios`, `android`, `macos`, `tdesktop`, `weba`, ... */
  platform: string;
  version: string | undefined;
  /** The Telegram user's interface language, when the init data carries it. */
  languageCode: string | undefined;
  startParam: string | undefined;
  /** The parameters came in the URL (a launch), not from the copy kept for a reload. */
  fresh: boolean;
  /** Mock the client's side of the bridge (development switch, and no real client present). */
  devMock: boolean;
}

interface LaunchEnv {
  location: Pick<Location, "hash" | "search">;
  storage: Pick<Storage, "getItem" | "setItem"> | undefined;
}

function defaultEnv(): LaunchEnv {
  let storage: Storage | undefined;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = undefined;
  }
  return { location: window.location, storage };
}

function isLaunchQuery(params: URLSearchParams): boolean {
  return params.has("tgWebAppPlatform") || params.has("tgWebAppData");
}

function savedLaunchQuery(storage: LaunchEnv["storage"], key: string): URLSearchParams | null {
  try {
    const saved = storage?.getItem(key);
    if (!saved) return null;
    const value: unknown = JSON.parse(saved);
    if (typeof value !== "string") return null;
    const params = new URLSearchParams(value);
    return isLaunchQuery(params) ? params : null;
  } catch {
    // A broken saved value is no launch.
    return null;
  }
}

/**
 * Launch parameters from the URL (hash first, then query), else from the copy saved at launch (the
 * app's, then the SDK's); null outside Telegram. Parameters found in the URL are saved for reloads.
 */
export function readLaunchParams(env: LaunchEnv = defaultEnv()): URLSearchParams | null {
  for (const source of [env.location.hash, env.location.search]) {
    const params = new URLSearchParams(source.replace(/^[#?]/, ""));
    if (isLaunchQuery(params)) {
      // The bot's web_app buttons carry their start parameter in the Mini App URL (`?startapp=...`).
      const startapp = new URLSearchParams(env.location.search).get("startapp");
      if (startapp && !params.has("tgWebAppStartParam")) params.set("tgWebAppStartParam", startapp);
      try {
        env.storage?.setItem(LAUNCH_PARAMS_STORAGE_KEY, JSON.stringify(params.toString()));
      } catch {
        // Without storage a reload is a web visit; nothing else changes.
      }
      return params;
    }
  }
  return (
    savedLaunchQuery(env.storage, LAUNCH_PARAMS_STORAGE_KEY) ?? savedLaunchQuery(env.storage, SDK_LAUNCH_PARAMS_KEY)
  );
}

/** Reads `tgDevMock=1` from the URL once and remembers it for the session. */
function readDevMockFlag(env: LaunchEnv = defaultEnv()): boolean {
  const fromUrl = new URLSearchParams(env.location.search).get(DEV_MOCK_QUERY_PARAM);
  try {
    if (fromUrl === "1") env.storage?.setItem(DEV_MOCK_STORAGE_KEY, "1");
    return fromUrl === "1" || env.storage?.getItem(DEV_MOCK_STORAGE_KEY) === "1";
  } catch {
    return fromUrl === "1";
  }
}

/** Takes `tgDevMock` out of the address once it is remembered, so it does not travel into `next` links. */
export function dropDevMockParam(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(DEV_MOCK_QUERY_PARAM)) return;
  url.searchParams.delete(DEV_MOCK_QUERY_PARAM);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
}

function userLanguage(initData: string | null): string | undefined {
  if (!initData) return undefined;
  try {
    const user: unknown = JSON.parse(new URLSearchParams(initData).get("user") ?? "null");
    if (user && typeof user === "object" && "language_code" in user && typeof user.language_code === "string") {
      return user.language_code;
    }
  } catch {
    // No readable user: no language hint.
  }
  return undefined;
}

/** A real client is there when it can receive our calls: a native webview proxy, Windows' notify, or a parent frame. */
export function hasNativeBridge(win: Window = window): boolean {
  const w = win as Window & { TelegramWebviewProxy?: { postEvent?: unknown }; external?: { notify?: unknown } };
  if (typeof w.TelegramWebviewProxy?.postEvent === "function") return true;
  if (typeof w.external?.notify === "function") return true;
  try {
    return w.self !== w.top;
  } catch {
    return true;
  }
}

export function detectTelegramLaunch(env: LaunchEnv = defaultEnv(), win?: Window): TelegramLaunch | null {
  const params = readLaunchParams(env);
  if (!params) return null;
  const devMock = readDevMockFlag(env) && !hasNativeBridge(win ?? window);
  const fresh = [env.location.hash, env.location.search].some((source) =>
    isLaunchQuery(new URLSearchParams(source.replace(/^[#?]/, ""))),
  );
  return {
    params,
    platform: params.get("tgWebAppPlatform") ?? "unknown",
    version: params.get("tgWebAppVersion") ?? undefined,
    languageCode: userLanguage(params.get("tgWebAppData")),
    // Telegram Web puts the start parameter in the query and the rest in the fragment.
    startParam:
      params.get("tgWebAppStartParam") ??
      new URLSearchParams(env.location.search).get("tgWebAppStartParam") ??
      new URLSearchParams(params.get("tgWebAppData") ?? "").get("start_param") ??
      undefined,
    fresh,
    devMock,
  };
}

/** telegram-ui's look: iOS style for Apple clients, the base style elsewhere. */
export function uiPlatformOf(platform: string | undefined): "ios" | "base" {
  return platform === "ios" || platform === "macos" ? "ios" : "base";
}
