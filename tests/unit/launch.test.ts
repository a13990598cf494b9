/** Telegram launch detection without the SDK: the hash, the query, or the SDK's saved copy. */
import { describe, expect, it } from "vitest";
import {
  DEV_MOCK_STORAGE_KEY,
  detectTelegramLaunch,
  dropDevMockParam,
  hasNativeBridge,
  LAUNCH_PARAMS_STORAGE_KEY,
  readLaunchParams,
  SDK_LAUNCH_PARAMS_KEY,
  uiPlatformOf,
} from "@/tma/launch";

function env(hash = "", search = "", saved: Record<string, string> = {}) {
  const data = new Map(Object.entries(saved));
  return {
    location: { hash, search },
    storage: {
      getItem: (key: string) => data.get(key) ?? null,
      setItem: (key: string, value: string) => void data.set(key, value),
    },
    data,
  };
}

const initData = new URLSearchParams({
  user: JSON.stringify({ id: 7, first_name: "Aigerim", language_code: "kk" }),
  auth_date: "1700000000",
  hash: "abc",
}).toString();
const launchQuery = new URLSearchParams({
  tgWebAppData: initData,
  tgWebAppVersion: "8.0",
  tgWebAppPlatform: "ios",
  tgWebAppThemeParams: JSON.stringify({ bg_color: "#17212b" }),
}).toString();

describe("launch detection", () => {
  it("is a web visit when nothing says Telegram", () => {
    expect(readLaunchParams(env())).toBeNull();
    expect(detectTelegramLaunch(env(), window)).toBeNull();
    expect(readLaunchParams(env("#/section", "?utm=1"))).toBeNull();
  });

  it("reads the launch parameters a client puts in the URL hash", () => {
    const launch = detectTelegramLaunch(env(`#${launchQuery}`), window);
    expect(launch).toMatchObject({ platform: "ios", version: "8.0", languageCode: "kk", devMock: false });
  });

  it("takes the start parameter from the query, where Telegram Web puts it next to a fragment launch", () => {
    const launch = detectTelegramLaunch(env(`#${launchQuery}`, "?tgWebAppStartParam=ref_demo"), window);
    expect(launch?.startParam).toBe("ref_demo");
  });

  it("counts tgWebAppPlatform alone, and parameters in the query string", () => {
    expect(readLaunchParams(env("#tgWebAppPlatform=android"))?.get("tgWebAppPlatform")).toBe("android");
    expect(readLaunchParams(env("", `?${launchQuery}`))?.get("tgWebAppVersion")).toBe("8.0");
  });

  it("keeps the parameters from the URL for reloads, init data included", () => {
    const first = env(`#${launchQuery}`);
    readLaunchParams(first);
    const reload = env("", "", Object.fromEntries(first.data));
    const launch = detectTelegramLaunch(reload, window);
    expect(launch?.platform).toBe("ios");
    expect(launch?.params.get("tgWebAppData")).toBe(initData);
    expect(first.data.has(LAUNCH_PARAMS_STORAGE_KEY)).toBe(true);
  });

  it("after a reload or navigation, also reads the SDK's saved copy in sessionStorage", () => {
    const saved = { [SDK_LAUNCH_PARAMS_KEY]: JSON.stringify(launchQuery) };
    expect(detectTelegramLaunch(env("", "", saved), window)?.platform).toBe("ios");
  });

  it("ignores a broken saved copy", () => {
    expect(readLaunchParams(env("", "", { [SDK_LAUNCH_PARAMS_KEY]: "{not json" }))).toBeNull();
    expect(readLaunchParams(env("", "", { [SDK_LAUNCH_PARAMS_KEY]: JSON.stringify("foo=bar") }))).toBeNull();
  });

  it("tgDevMock=1 turns on the mock and keeps it for the session, unless a real client is there", () => {
    const first = env(`#${launchQuery}`, "?tgDevMock=1");
    expect(detectTelegramLaunch(first, window)?.devMock).toBe(true);
    expect(first.data.get(DEV_MOCK_STORAGE_KEY)).toBe("1");

    const reload = env("", "", { [DEV_MOCK_STORAGE_KEY]: "1", [SDK_LAUNCH_PARAMS_KEY]: JSON.stringify(launchQuery) });
    expect(detectTelegramLaunch(reload, window)?.devMock).toBe(true);

    const withClient = { ...window, TelegramWebviewProxy: { postEvent() {} } } as unknown as Window;
    expect(detectTelegramLaunch(env(`#${launchQuery}`, "?tgDevMock=1"), withClient)?.devMock).toBe(false);
  });

  it("takes tgDevMock out of the address once remembered, keeping the rest", () => {
    window.history.replaceState(null, "", `/?tgDevMock=1&x=2#${launchQuery}`);
    dropDevMockParam();
    expect(window.location.search).toBe("?x=2");
    expect(window.location.hash).toBe(`#${launchQuery}`);
    window.history.replaceState(null, "", "/");
  });

  it("knows a real client by its bridge", () => {
    expect(hasNativeBridge(window)).toBe(false);
    const proxy = { self: 1, top: 1, TelegramWebviewProxy: { postEvent() {} } } as unknown as Window;
    expect(hasNativeBridge(proxy)).toBe(true);
    const framed = { self: 1, top: 2 } as unknown as Window;
    expect(hasNativeBridge(framed)).toBe(true);
  });

  it("gives Apple clients the iOS look and everyone else the base look", () => {
    expect(uiPlatformOf("ios")).toBe("ios");
    expect(uiPlatformOf("macos")).toBe("ios");
    expect(uiPlatformOf("android")).toBe("base");
    expect(uiPlatformOf("tdesktop")).toBe("base");
    expect(uiPlatformOf(undefined)).toBe("base");
  });
});
