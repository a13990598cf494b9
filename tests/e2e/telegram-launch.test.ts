/**
 * A launch inside Telegram with a kept session: the cabinet's first screen's call, which answers the launch's calls
 * (the kept token's check, the balance…), leaves beside the code, not after it. Inside Telegram the token lives in
 * the client's storage (SecureStorage on a phone, DeviceStorage on the desktop, the framed store on Telegram Web);
 * reading it must not wait for the SDK's code or the cabinet's. The cabinet's launch chunk is held back here until
 * that call has gone out (or 5 s have passed): it has to go while the cabinet's code is still on its way. And the
 * SDK's code, which every Telegram launch boots, is asked for beside the entry chunk (held back until then), not
 * after it; the cabinet's launch chunk once the entry has come.
 */
import { LAUNCH_CALL_URLS } from "@contract/launch-calls";
import type { Browser, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, useSession as keepSession, signUpThroughApi } from "./support/app";
import { launchHash, newTelegramUser } from "./support/telegram-client";
import { telegramFile, telegramPhone } from "./support/telegram-file";

/** How long the cabinet's launch chunk is held back at most. */
const HOLD_MS = 5_000;
let browser: Browser;
telegramFile((shared) => {
  browser = shared;
});

const CLIENTS = [
  { platform: "ios", version: "9.0", store: "secure" },
  { platform: "tdesktop", version: "9.0", store: "device" },
  { platform: "weba", version: "9.0", store: "framed" },
] as const;

describe("a Telegram launch with a kept session", { timeout: 90_000 }, () => {
  for (const client of CLIENTS) {
    it(`${client.platform}: asks for the balance with the first screen while the cabinet's code is still loading`, async () => {
      const investor = await signUpThroughApi();
      const { context, page } = await telegramPhone(browser, {
        ...(client.store === "secure" ? { keychain: new Map() } : {}),
        ...(client.store === "device" ? { deviceStorage: new Map() } : {}),
      });
      await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
      if (client.store === "framed") await keepSession(context, investor);
      else {
        // Where the simulated client keeps its storage (support/telegram-client.ts), and the saved user.
        await context.addInitScript(
          ({ slot, token, user }) => {
            sessionStorage.setItem(slot, token);
            localStorage.setItem("kassa.user", JSON.stringify(user));
          },
          { slot: `tg-${client.store}:kassa_refresh_token`, token: investor.token, user: investor.user },
        );
      }
      const requests: { path: string; at: number }[] = [];
      const balanceAsked = new Promise<void>((resolve) => {
        page.on("request", (request: Request) => {
          const path = new URL(request.url()).pathname;
          requests.push({ path, at: Date.now() });
          if (path === "/api/app/first-screen") resolve();
        });
      });
      // The cabinet's launch chunk (its frame, first screen and the launch's data code) waits for the first screen's
      // call, which answers the balance.
      let released: "balance" | "timeout" | undefined;
      await page.route(/\/assets\/cabinet-launch-[^/]+\.js$/, async (route) => {
        released ??= await Promise.race([
          balanceAsked.then(() => "balance" as const),
          new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), HOLD_MS)),
        ]);
        await route.continue();
      });
      // The entry chunk waits for the SDK's code to be asked for: the launcher announces it beside the entry, not
      // after it. The cabinet's launch chunk is asked for once the entry has come.
      let announced: "boot" | "timeout" | undefined;
      const asked = (file: RegExp) =>
        new Promise<void>((resolve) => {
          page.on("request", (request: Request) => {
            if (file.test(request.url())) resolve();
          });
        });
      const bootAsked = asked(/\/assets\/boot-[^/]+\.js$/);
      // In the order the browser reported them: the entry came before the cabinet's chunk was asked for.
      const events: string[] = [];
      page.on("requestfinished", (request: Request) => {
        if (/\/assets\/index-[^/]+\.js$/.test(request.url())) events.push("entry came");
      });
      page.on("request", (request: Request) => {
        if (/\/assets\/cabinet-launch-[^/]+\.js$/.test(request.url())) events.push("cabinet asked");
      });
      await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
        announced ??= await Promise.race([
          bootAsked.then(() => "boot" as const),
          new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), HOLD_MS)),
        ]);
        await route.continue();
      });
      const user = newTelegramUser(700_000_000, () => ({ first_name: "Kept", language_code: "en" }));
      await page.goto(`${base()}/${launchHash({ user, platform: client.platform, version: client.version })}`);
      await page.locator("[data-testid='balance']").first().waitFor({ timeout: 30_000 });

      const paths = requests.map((r) => r.path);
      expect(released, `the cabinet's code was held until ${released}; requests: ${paths.join(", ")}`).toBe("balance");
      expect(announced, `the entry was held until ${announced}; requests: ${paths.join(", ")}`).toBe("boot");
      expect(events.slice(0, 2)).toEqual(["entry came", "cabinet asked"]);
      // The first screen's call is sent once, and none of the calls it answers: the screens take its replies. The
      // token is checked by it (its reply carries the user's, as `GET /user/me` would).
      expect(paths.filter((p) => p === "/api/app/first-screen")).toHaveLength(1);
      const answered = LAUNCH_CALL_URLS.map((url) => `/api${url.split("?")[0]}`);
      expect(paths.filter((p) => answered.includes(p))).toEqual([]);
      // No Telegram sign-in: the kept session counted.
      expect(paths.filter((p) => p.startsWith("/api/auth/telegram"))).toEqual([]);
      await context.close();
    });
  }
});
