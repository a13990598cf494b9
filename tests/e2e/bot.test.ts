/**
 * The chat bot end to end: the real server (polling a stand-in of the Bot API) and the Mini App in
 * Chromium. `/start ref_demo` → the recorded web_app button opens the registration with the inviter;
 * a refill the operator confirms → exactly one chat message with a button to that refill, also when
 * the server is killed after the commit while the message is on its way (the outbox survives), and
 * the button opens the refill screen after Telegram sign-in.
 */
import { rmSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import { screen } from "./support/app";
import { type BotApiStandIn, startBotApiStandIn, textUpdate } from "./support/bot-api";
import { releaseChromium, sharedChromium } from "./support/browser";
import { kassaWith } from "./support/cli";
import { freePort, type RunningServer, startServer } from "./support/server";
import { launchHash, signedInitData } from "./support/telegram-client";
import { telegramPhone } from "./support/telegram-file";

const INVITED = { id: 610_000_001, first_name: "Aliya", language_code: "en" };
const INVESTOR = { id: 610_000_002, first_name: "Bolat", username: "bolat_tg", language_code: "ru" };

let api: BotApiStandIn;
let server: RunningServer;
let browser: Browser;
let port: number;
let dataDir: string | undefined;

const serverEnv = () => ({
  TELEGRAM_API_ROOT: api.url,
  MINI_APP_URL: `http://127.0.0.1:${port}/`,
  ACCRUAL_INTERVAL_SECONDS: "0",
});
const base = () => `http://127.0.0.1:${port}`;

const kassa = (...args: string[]) => kassaWith(server.env, ...args);

/** The recorded calls, as the note shows them (no timestamps). */
const printable = (calls: { method: string; params: unknown; status: number }[]) =>
  JSON.stringify(
    calls.map(({ method, params, status }) => ({ method, status, params })),
    null,
    2,
  );

beforeAll(async () => {
  api = await startBotApiStandIn();
  port = await freePort();
  server = await startServer(serverEnv(), { port });
  dataDir = server.dataDir;
  browser = await sharedChromium();
}, 240_000);
afterAll(async () => {
  await releaseChromium(browser);
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await api?.close();
});

describe("the chat bot (Bot API stand-in)", () => {
  it("sets its commands in four languages and the menu button at start; /start ref_demo opens the registration with the inviter", async () => {
    await api.waitForCall("setChatMenuButton", (c) => c.params.chat_id === undefined, 30_000);
    expect(api.callsOf("setMyCommands").map((c) => c.params.language_code ?? "default")).toEqual([
      "default",
      "en",
      "ru",
      "de",
      "kk",
    ]);

    api.pushUpdate(textUpdate(INVITED, "/start ref_demo"));
    const reply = await api.waitForCall("sendMessage", (c) => c.params.chat_id === INVITED.id);
    const button = (reply.params.reply_markup as { inline_keyboard: { text: string; web_app: { url: string } }[][] })
      .inline_keyboard[0]?.[0];
    expect(button?.text).toBe("Sign up");
    expect(button?.web_app.url).toBe(`${base()}/?startapp=ref_demo`);
    await api.waitForCall("setChatMenuButton", (c) => c.params.chat_id === INVITED.id);
    console.log(
      `Bot API calls for /start ref_demo:\n${printable(api.calls.filter((c) => (c.params as { chat_id?: number }).chat_id === INVITED.id || c.method === "getUpdates"))}`,
    );

    // The button opens the Mini App; with Telegram sign-in off the user registers with the form.
    await kassa("settings", "set", "telegramAuthAvailable", "false");
    const { context, page } = await telegramPhone(browser);
    await page.goto(`${button?.web_app.url}${launchHash({ user: INVITED, platform: "android" })}`);
    await screen(page, "login");
    await page.locator("a[href='/register']").first().click();
    await screen(page, "register");
    await expect.poll(() => page.locator("[data-testid='inviter']").innerText()).toContain("demo");
    await page.screenshot({ path: "artifacts/bot-register-inviter.png" });
    await context.close();
    await kassa("settings", "set", "telegramAuthAvailable", "true");
  }, 180_000);

  it("a confirmed refill reaches the chat exactly once, even when the server is killed between commit and send", async () => {
    // Bolat signs in with Telegram (his account is linked) and asks for a refill.
    // This file's own server (the bot on), not the worker's.
    const { refreshToken } = await apiCall("telegramAuth", {
      baseUrl: base(),
      body: { initData: signedInitData(INVESTOR), language: "ru" },
    });
    const refill = await apiCall("createRefill", {
      baseUrl: base(),
      body: { paymentSystemId: "usdt-trc20", amount: "25" },
      token: refreshToken,
    });

    // Telegram takes the message but never answers; the server dies right after the commit.
    const toInvestor = (c: { method: string; params: Record<string, unknown> }) =>
      c.method === "sendMessage" && c.params.chat_id === INVESTOR.id;
    api.override("sendMessage", (params) => (params.chat_id === INVESTOR.id ? "hang" : undefined));
    await kassa("refill", "confirm", refill.id);
    await expect.poll(() => api.calls.filter(toInvestor).length, { timeout: 20_000 }).toBe(1);
    await server.kill();
    api.dropHung();
    api.override("sendMessage", null);

    // Started again on the same data: the outbox still holds the message, and sends it once.
    server = await startServer(serverEnv(), { port, dataDir });
    const sent = await api.waitForCall("sendMessage", (c) => toInvestor(c) && c.status === 200, 30_000);
    await new Promise((r) => setTimeout(r, 3000));
    const delivered = api.calls.filter((c) => toInvestor(c) && c.status === 200);
    expect(delivered).toHaveLength(1);
    expect(sent.params).toMatchObject({
      text: "<b>Пополнение зачислено</b>\nНа ваш баланс зачислено 25,00 USDT.",
      parse_mode: "HTML",
      reply_markup: {
        inline_keyboard: [
          [{ text: "Открыть пополнение", web_app: { url: `${base()}/?startapp=refill_${refill.id}` } }],
        ],
      },
    });
    console.log(
      `Bot API calls for one refill credit (the first never answered, then the server killed):\n${printable(api.calls.filter(toInvestor))}`,
    );

    // The button opens the Mini App on that refill, after Telegram sign-in.
    const { context, page } = await telegramPhone(browser);
    const url = (sent.params.reply_markup as { inline_keyboard: { web_app: { url: string } }[][] })
      .inline_keyboard[0]?.[0]?.web_app.url;
    await page.goto(`${url}${launchHash({ user: INVESTOR, platform: "ios" })}`);
    await screen(page, "refill", 30_000);
    expect(new URL(page.url()).searchParams.get("refill")).toBe(refill.id);
    await page.screenshot({ path: "artifacts/bot-refill-deep-link.png" });
    await context.close();
  }, 300_000);
});
