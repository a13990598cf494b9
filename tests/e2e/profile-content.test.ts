/**
 * Profile and content end to end, in Chromium against the real server: edit the profile; change the
 * password (wrong old password first) and see another session end; upload a real PNG avatar and see
 * it, while a 6 MB file and a renamed non-image are refused; send a verification that the operator
 * approves and see the notification; open news; activate a subscription through its confirmation and see balance and prompt change.
 */

import { request } from "node:http";
import { deflateSync } from "node:zlib";
import Big from "big.js";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiReply } from "./support/api";
import { type ApiSession, base, PASSWORD, screen, signUpThroughApi, useSession } from "./support/app";
import { phoneContext, releaseChromium, sharedChromium } from "./support/browser";
import { creditedRefill, kassaCli } from "./support/cli";
import { text } from "./support/locales";

let browser: Browser;
let investor: ApiSession;
let context: BrowserContext;
let page: Page;

/** A real PNG of `size`×`size` pixels, built byte by byte (signature, IHDR, IDAT, IEND with CRCs). */
function png(size: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) rows.set([36, 129, 204], y * (1 + size * 3) + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  browser = await sharedChromium();
  investor = await signUpThroughApi();
  context = await phoneContext(browser);
  await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
  await useSession(context, investor);
  page = await context.newPage();
});
afterAll(async () => {
  await releaseChromium(browser);
});

const section = (name: string) => page.locator(`[data-section='${name}']`);

/** Settings' `name` screen (`/settings/<name>`). */
async function openSettings(name: "profile" | "password" | "verification") {
  await page.goto(`${base()}/settings/${name}`);
  await page.locator(`[data-settings-screen='${name}']`).waitFor();
  // Every section's data in (profile, security, verification, wallets…) before the test types.
  await page.waitForLoadState("networkidle");
}

/** A multipart upload that declares `length` bytes and sends none of them: the server must answer from the headers. */
function refusedUpload(url: string, token: string, length: number) {
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "PATCH",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "multipart/form-data; boundary=kassa",
          "content-length": String(length),
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      },
    );
    req.on("error", reject);
    req.flushHeaders();
  });
}

describe("profile and content", () => {
  it("edits the profile data and keeps the registration date read-only", async () => {
    await openSettings("profile");
    const profile = section("profile");
    await profile.locator("input[name='city']").fill("Almaty");
    await profile.locator("input[name='country']").fill("Kazakhstan");
    expect(await profile.locator("input[name='city']").inputValue()).toBe("Almaty");
    await profile.locator("[data-testid='submit-profile']").click();
    // The section says it saved (on failure the poll shows the section's text: its error, if any).
    await expect
      .poll(
        async () => (await profile.locator("[data-testid='form-success']").innerText()) || (await profile.innerText()),
      )
      .toBe(text("en", "settings", "saved"));
    await expect
      .poll(async () => (await apiCall("userDataByType", { params: { type: "profile" }, token: investor.token })).city)
      .toBe("Almaty");
    await page.reload();
    await page.locator("[data-settings-screen='profile']").waitFor();
    expect(await section("profile").locator("input[name='city']").inputValue()).toBe("Almaty");
    expect(await page.locator("[data-testid='registered-at']").count()).toBe(1);
    expect(await page.locator("input[name='registeredAt']").count()).toBe(0);
  });

  it("changes the password: the wrong old one is refused, then the change ends the other session", async () => {
    const otherToken = (await apiCall("login", { body: { login: investor.login, password: PASSWORD } })).refreshToken;
    await openSettings("password");
    const form = section("password");
    await form.locator("input[name='oldPassword']").fill("NotMyPassword1");
    await form.locator("input[name='password']").fill("Granite2028go");
    await form.locator("input[name='passwordRepeat']").fill("Granite2028go");
    await form.locator("[data-testid='submit-password']").click();
    await expect.poll(() => form.innerText()).toContain(text("en", "errors", "OLD_PASSWORD_INCORRECT"));
    await form.locator("input[name='oldPassword']").fill(PASSWORD);
    await form.locator("[data-testid='submit-password']").click();
    await expect.poll(async () => (await apiReply("currentUser", { token: otherToken })).status).toBe(401);
    // This session goes on.
    expect((await apiReply("currentUser", { token: investor.token })).status).toBe(200);
  });

  it("uploads a real PNG avatar and shows it; refuses a 6 MB file and a renamed non-image", async () => {
    await openSettings("profile");
    const avatar = section("avatar");
    const input = avatar.locator("input[name='avatar']");
    await input.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png(64) });
    await avatar.locator("[data-testid='submit-avatar']").click();
    await expect.poll(() => avatar.locator("img[data-testid='avatar-image']").getAttribute("src")).toMatch(/avatar/);
    const src = (await avatar.locator("img[data-testid='avatar-image']").getAttribute("src")) as string;
    const served = await fetch(new URL(src, base()));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/image\/png/);
    expect(
      await avatar.locator("img[data-testid='avatar-image']").evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(64);

    const failed = text("en", "errors", "IMAGE_UPDATE_FAILED");
    await input.setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: Buffer.concat([png(8), Buffer.alloc(6 * 1024 * 1024)]),
    });
    // Over 5 MB: refused as soon as it is chosen, before any upload…
    await expect.poll(() => avatar.innerText()).toContain(failed);
    // Nothing to upload: the upload button is gone until an image is chosen.
    expect(await avatar.locator("[data-testid='submit-avatar']").count()).toBe(0);
    // …and by the server too, whatever a client lets through: it answers from the declared length, before
    // any of the body is sent, and closes the connection.
    const direct = await refusedUpload(`${base()}/api/user/avatar`, investor.token, 6 * 1024 * 1024 + 512);
    expect(direct.status).toBe(400);
    expect(direct.connection).toBe("close");
    expect((JSON.parse(direct.body) as { code: string }).code).toBe("IMAGE_UPDATE_FAILED");

    await input.setInputFiles({
      name: "notes.png",
      mimeType: "image/png",
      buffer: Buffer.from("just some text, not a picture\n".repeat(20)),
    });
    await avatar.locator("[data-testid='submit-avatar']").click();
    await expect.poll(() => avatar.innerText()).toContain(failed);
    // The avatar that was accepted is still the one shown.
    expect(await avatar.locator("img[data-testid='avatar-image']").getAttribute("src")).toBe(src);
  });

  it("sends a verification, the operator approves it, and the notification appears", async () => {
    await openSettings("verification");
    const form = section("verification");
    await form.locator("input[name='fullName']").fill("Mira Ledger");
    await form.locator("input[name='dateOfBirth']").fill("1990-04-12");
    await form.locator("select[name='familyStatus']").selectOption("single");
    await form.locator("input[name='documentNumber']").fill("N12345678");
    for (const field of ["documentPhoto", "loginPhoto", "walletPhoto"]) {
      await form
        .locator(`input[name='${field}']`)
        .setInputFiles({ name: `${field}.png`, mimeType: "image/png", buffer: png(32) });
      // The app's picker shows the chosen photo (a real image decoded by the browser) and its name.
      const picker = form.locator(`[data-testid='photo-${field}']`);
      expect(await picker.locator("[data-testid='photo-name']").innerText()).toBe(`${field}.png`);
      await expect
        .poll(() =>
          picker.locator("[data-testid='photo-preview']").evaluate((img) => (img as HTMLImageElement).naturalWidth),
        )
        .toBe(32);
    }
    await form.locator("[data-testid='submit-verification']").click();
    await expect
      .poll(() => page.locator("[data-testid='verification-status']").getAttribute("data-status"))
      .toBe("in_process");
    // Sent, not yet verified: the status says so.
    await page.locator("[data-testid='verification-in-review']").waitFor();

    await kassaCli("verification", "approve", investor.login);
    await page.goto(`${base()}/`);
    await screen(page, "cabinet");
    // The bell counts it; the inbox lists it, and a tap reads it and opens the settings.
    const bell = page.locator("[data-testid='notification-bell']");
    await expect.poll(() => bell.getAttribute("data-count"), { timeout: 15_000 }).toBe("1");
    await bell.click();
    await page.locator("[data-testid='notification'][data-kind='verification_success']").click();
    await screen(page, "settings");
    await expect.poll(async () => (await apiCall("notifications", { token: investor.token })).unread).toBe(0);
    await openSettings("verification");
    await expect
      .poll(() => page.locator("[data-testid='verification-status']").getAttribute("data-status"))
      .toBe("success");
    expect(await page.locator("[data-testid='verification-succeeded']").innerText()).toBe(
      text("en", "success", "VERIFICATION_SUCCEEDED"),
    );
  });

  it("opens the news list, then an item, also by a deep link", async () => {
    await page.goto(`${base()}/news`);
    await screen(page, "news");
    const first = page.locator("[data-testid='news-row']").first();
    const id = (await first.getAttribute("data-news-id")) as string;
    await first.click();
    await screen(page, "news-item");
    const title = await page.locator("[data-testid='news-title']").innerText();
    expect(title.length).toBeGreaterThan(0);
    await page.goto(`${base()}/news/${id}`);
    await screen(page, "news-item");
    expect(await page.locator("[data-testid='news-title']").innerText()).toBe(title);
  });

  it("activates a subscription from the balance; the prompt goes and the balance drops by the price", async () => {
    await creditedRefill(investor.token, "50");
    const options = await apiCall("subscriptionOptions", { token: investor.token });
    const monthly = options[0] as { id: string; price: string };

    await page.goto(`${base()}/`);
    await screen(page, "cabinet");
    // The credited refill waits in the inbox behind the bell; nothing covers the prompt.
    await expect.poll(() => page.locator("[data-testid='notification-bell']").getAttribute("data-count")).toBe("1");
    const prompt = page.locator("[data-testid='subscription-prompt']");
    await prompt.waitFor();
    await prompt.locator("[data-testid='activate-subscription']").click();
    // Nothing is paid before the confirmation: price, the balance it comes from, then "Pay".
    const sheet = page.locator("[data-testid='subscription-sheet']");
    await sheet.waitFor();
    const option = sheet.locator(`[data-testid='subscription-option'][data-option-id='${monthly.id}']`);
    if ((await option.count()) > 0) await option.click();
    expect(
      await sheet.locator("[data-testid='subscription-summary-price'] [data-amount]").getAttribute("data-amount"),
    ).toBe(monthly.price);
    const before = await apiCall("balance", { token: investor.token });
    expect(new Big(before.currencies.USDT as string).eq(50)).toBe(true);
    await sheet.locator("[data-testid='subscription-pay']").click();
    await sheet.locator("[data-testid='form-success']").waitFor();
    await sheet.locator("[data-testid='subscription-close']").click();
    await expect.poll(() => prompt.count()).toBe(0);
    const balance = await apiCall("balance", { token: investor.token });
    expect(new Big(balance.currencies.USDT as string).eq(new Big("50").minus(monthly.price))).toBe(true);
    const me = await apiCall("currentUser", { token: investor.token });
    expect(me.subscription.active).toBe(true);
  });
});
