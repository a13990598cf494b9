/** The start-parameter rule of the contract (bot and Mini App alike) and the screen each one opens. */
import { formatStartParam, inviterFromStartParam, parseStartParam, referralStartParam } from "@contract";
import { describe, expect, it } from "vitest";
import { startParamPath } from "@/config/paths";
import { detectTelegramLaunch, LAUNCH_PARAMS_STORAGE_KEY } from "@/tma/launch";

const ID = "0b6f1f3e-8f4a-4c43-9a59-3d1f2c7e9a10";

describe("start parameters", () => {
  it("parse each prefix and round-trip through formatStartParam", () => {
    expect(parseStartParam("ref_demo")).toEqual({ kind: "ref", login: "demo" });
    for (const kind of ["withdrawal", "deposit", "refill", "news"] as const) {
      const param = `${kind}_${ID}`;
      expect(parseStartParam(param)).toEqual({ kind, id: ID });
      expect(formatStartParam({ kind, id: ID })).toBe(param);
    }
    expect(parseStartParam("settings")).toEqual({ kind: "settings" });
    expect(formatStartParam({ kind: "ref", login: "alice" })).toBe(referralStartParam("alice"));
  });

  it("refuse what Telegram would not pass or what is none of ours", () => {
    for (const value of [
      undefined,
      null,
      "",
      "ref_",
      "withdrawal_",
      "ref_a b",
      "other_1",
      "ref_x/../y",
      "x".repeat(65),
    ])
      expect(parseStartParam(value)).toBeNull();
    expect(formatStartParam({ kind: "ref", login: "a".repeat(70) })).toBeNull();
  });

  it("give the inviter only for ref_", () => {
    expect(inviterFromStartParam("ref_bolat")).toBe("bolat");
    expect(inviterFromStartParam(`withdrawal_${ID}`)).toBeUndefined();
    expect(inviterFromStartParam("bolat")).toBeUndefined();
  });

  it("open the screen of the item", () => {
    expect(startParamPath(`withdrawal_${ID}`)).toBe(`/withdrawal?application=${ID}`);
    expect(startParamPath(`deposit_${ID}`)).toBe(`/deposits?deposit=${ID}`);
    expect(startParamPath(`refill_${ID}`)).toBe(`/refill?refill=${ID}`);
    expect(startParamPath(`news_${ID}`)).toBe(`/news/${ID}`);
    expect(startParamPath("settings")).toBe("/settings");
    expect(startParamPath("ref_demo")).toBeUndefined();
    expect(startParamPath("nonsense")).toBeUndefined();
  });
});

describe("a launch is fresh only when its parameters are in the URL", () => {
  const query = new URLSearchParams({ tgWebAppPlatform: "ios", tgWebAppStartParam: `withdrawal_${ID}` }).toString();
  const storage = (saved: Record<string, string>) => {
    const data = new Map(Object.entries(saved));
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
  };

  it("from the hash: fresh, with the start parameter", () => {
    const launch = detectTelegramLaunch({ location: { hash: `#${query}`, search: "" }, storage: storage({}) }, window);
    expect(launch?.fresh).toBe(true);
    expect(launch?.startParam).toBe(`withdrawal_${ID}`);
  });

  it("from the copy kept for a reload: not fresh, so the screen is not forced again", () => {
    const launch = detectTelegramLaunch(
      { location: { hash: "", search: "" }, storage: storage({ [LAUNCH_PARAMS_STORAGE_KEY]: JSON.stringify(query) }) },
      window,
    );
    expect(launch?.fresh).toBe(false);
    expect(launch?.startParam).toBe(`withdrawal_${ID}`);
  });
});

describe("the bot's web_app buttons", () => {
  it("carry the start parameter in the Mini App URL (?startapp=), kept for a reload", () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    const hash = `#${new URLSearchParams({ tgWebAppPlatform: "android", tgWebAppData: "user=%7B%7D" }).toString()}`;
    const launch = detectTelegramLaunch({ location: { hash, search: "?startapp=ref_demo" }, storage }, window);
    expect(launch?.startParam).toBe("ref_demo");
    const reloaded = detectTelegramLaunch({ location: { hash: "", search: "" }, storage }, window);
    expect(reloaded?.startParam).toBe("ref_demo");
  });
});
