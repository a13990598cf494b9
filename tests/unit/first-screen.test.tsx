/**
 * The cabinet's first screen as the server renders it for the launcher (`src/app/launcher/first-screen.tsx`): the
 * app's own components with the investor's data, in the language and look asked for, as a block nothing takes for
 * the app's — and none for an investor the app sends elsewhere first.
 */
import { describe, expect, it } from "vitest";
import { cabinetScreen, loginTemplate } from "@/app/launcher/first-screen";
import { buttonFill } from "@/tma/button-fill";
import { DEMO_USER, overviewOf } from "./test-utils";

const OVERVIEW = overviewOf(
  "USDT",
  { USDT: "14.3", BTC: "0", ETH: "0", TON: "0" },
  { USDT: "1000", BTC: "0", ETH: "0", TON: "0" },
);

/** The markup as a document fragment. */
function parse(markup: string | null): HTMLElement {
  const holder = document.createElement("template");
  holder.innerHTML = markup ?? "";
  const block = holder.content.firstElementChild;
  if (!(block instanceof HTMLElement)) throw new Error(`no block in ${markup}`);
  return block;
}

describe("the cabinet's first screen", () => {
  it("shows the investor's figures as the app formats them in the language asked for", () => {
    const block = parse(
      cabinetScreen({ language: "de", platform: "base", appearance: "light", user: DEMO_USER, overview: OVERVIEW }),
    );
    const total = block.querySelector("[data-testid='overview-total-painted']");
    expect(total?.textContent).toBe("1.014,30 USDT");
    expect(total?.getAttribute("data-amount")).toBe("1014.3");
    expect(block.querySelector("[data-testid='balance-painted']")?.textContent).toBe("14,30 USDT");
    expect(block.querySelector("[data-testid='welcome-painted']")?.textContent).toBe("Willkommen, Demo Investor");
  });

  it("writes a name as text, whatever characters it holds, and the bell's count as the app's bell draws it", () => {
    const name = "Bob $& $1 <i>x</i>";
    const user = { ...DEMO_USER, fullName: name, notifications: { unread: 150 } };
    const block = parse(
      cabinetScreen({ language: "en", platform: "base", appearance: "light", user, overview: OVERVIEW }),
    );
    const welcome = block.querySelector("[data-testid='welcome-painted']");
    expect(welcome?.textContent).toBe(`Welcome, ${name}`);
    expect(welcome?.querySelector("i")).toBeNull();
    expect(block.querySelector("[data-testid='notification-bell-painted']")?.getAttribute("data-count")).toBe("99+");
  });

  it("is inert, hidden from screen readers, with no element ids, no screen's name and its test ids marked", () => {
    const markup = cabinetScreen({
      language: "ru",
      platform: "ios",
      appearance: "dark",
      user: DEMO_USER,
      overview: OVERVIEW,
    });
    const block = parse(markup);
    expect(block.dataset.testid).toBe("painted-cabinet");
    expect(block.getAttribute("aria-hidden")).toBe("true");
    expect(block.hasAttribute("inert")).toBe(true);
    expect(block.dataset).toMatchObject({ appearance: "dark", platform: "ios" });
    expect(block.querySelectorAll("[id], [data-screen]")).toHaveLength(0);
    const ids = [...block.querySelectorAll<HTMLElement>("[data-testid]")].map((element) => element.dataset.testid);
    expect(ids.length).toBeGreaterThan(5);
    expect(ids.filter((id) => !id?.endsWith("-painted"))).toEqual([]);
  });

  it("is light or dark as asked, in telegram-ui's classes", () => {
    const classes = (appearance: "light" | "dark") =>
      parse(cabinetScreen({ language: "en", platform: "base", appearance, user: DEMO_USER, overview: OVERVIEW }))
        .className;
    expect(classes("dark")).not.toBe(classes("light"));
  });

  it("inside Telegram wears the client's platform and its theme's colours as the boot takes them, dark by its background", () => {
    const screen = (theme: string, telegram = "ios") =>
      cabinetScreen({
        language: "en",
        telegram,
        theme,
        user: DEMO_USER,
        overview: OVERVIEW,
      });
    const light = parse(
      screen(JSON.stringify({ bg_color: "#FFF", button_color: "#2481cc", button_text_color: "#ffffff" })),
    );
    expect(light.dataset).toMatchObject({ telegram: "ios", appearance: "light", platform: "ios" });
    expect(light.style.getPropertyValue("--tg-theme-bg-color")).toBe("#ffffff");
    expect(light.style.getPropertyValue("--tg-theme-button-color")).toBe("#2481cc");
    // The fill the boot sets (tma/button-fill.ts): this theme's button darkened until its white text reads at 4.5:1.
    expect(light.style.getPropertyValue("--kassa-button-fill")).toBe(buttonFill("#2481cc", "#ffffff"));
    expect(light.style.getPropertyValue("--kassa-button-fill")).not.toBe("#2481cc");
    expect(parse(screen(JSON.stringify({ bg_color: "#17212b" }))).dataset.appearance).toBe("dark");
    // telegram-ui's look as the app takes it from the client: iOS's on Apple's clients, the base look elsewhere.
    expect(parse(screen("{}", "macos")).dataset.platform).toBe("ios");
    expect(parse(screen("{}", "android")).dataset.platform).toBe("base");
    // No background: dark, as the SDK's `isDark`.
    expect(parse(screen("{}")).dataset.appearance).toBe("dark");
    // A colour the SDK would not read, or no theme at all: nothing to paint.
    expect(screen(JSON.stringify({ bg_color: "white" }))).toBeNull();
    expect(screen("not json")).toBeNull();
  });

  it("is none for an investor whose phone waits for its code (the app shows its confirmation first)", () => {
    const user = { ...DEMO_USER, phone: "+77010000001", phoneConfirmed: false };
    expect(
      cabinetScreen({ language: "en", platform: "base", appearance: "light", user, overview: OVERVIEW }),
    ).toBeNull();
  });
});

describe("the login's header", () => {
  it("is the app's brand header in each language and look", () => {
    const english = parse(loginTemplate("en", "light"));
    const kazakh = parse(loginTemplate("kk", "light"));
    const dark = parse(loginTemplate("en", "dark"));
    expect(english.dataset.testid).toBe("painted-login");
    expect(english.textContent).not.toBe(kazakh.textContent);
    expect(english.textContent?.length).toBeGreaterThan(10);
    expect(dark.textContent).toBe(english.textContent);
    expect([english.dataset.appearance, dark.dataset.appearance]).toEqual(["light", "dark"]);
    expect(dark.className).not.toBe(english.className);
  });
});
