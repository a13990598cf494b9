/**
 * The money slice end to end, in Chromium against the real server: a refill confirmed by the operator's
 * command line shows in the balance and the operations; a deposit's preview equals the deposit the
 * server creates; moving the server's clock shows the held accruals; closing early returns exactly the
 * stated amounts; and a deposit the balance cannot pay gets 'Not enough funds'.
 */
import Big from "big.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import { type ApiSession, base, readNotifications, screen, signUpThroughApi, useSession } from "./support/app";
import { phoneContext, releaseChromium, sharedChromium } from "./support/browser";
import { kassaCli } from "./support/cli";
import { text } from "./support/locales";

let browser: Browser;
let investor: ApiSession;
let page: Page;

beforeAll(async () => {
  browser = await sharedChromium();
  investor = await signUpThroughApi();
  const context = await phoneContext(browser);
  await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
  await useSession(context, investor);
  page = await context.newPage();
});
afterAll(async () => {
  await kassaCli("clock", "reset").catch(() => undefined);
  await releaseChromium(browser);
});

const amountOf = async (selector: string) => page.locator(selector).first().getAttribute("data-amount");
const same = (a: string | null | undefined, b: string) => a != null && new Big(a).eq(b);

interface Refill {
  id: string;
  status: string;
  address: string;
}
interface Deposit {
  id: string;
  amount: string;
  dailyIncome: string;
  totalAtEnd: string;
  accruedHeld: string;
  status: string;
}

describe("money", () => {
  it("credits a refill once the operator confirms it, in the balance and the operations", async () => {
    await page.goto(`${base()}/refill`);
    await screen(page, "refill");
    await page.locator("select[name='paymentSystemId']").selectOption("usdt-trc20");
    await page.locator("input[name='amount']").fill("500");
    await page.locator("[data-testid='submit']").first().click();
    const dialog = page.locator("[data-testid='wallet-dialog']");
    await dialog.waitFor();

    const { items } = await apiCall("refills", { token: investor.token });
    const refill = items[0] as Refill;
    expect(refill.status).toBe("waiting");
    await expect.poll(() => dialog.locator("[data-testid='refill-address']").innerText()).toContain(refill.address);
    await dialog.locator("[data-testid='refill-qr']").waitFor();
    await dialog
      .locator("input[name='txHash']")
      .fill("9f2c4b7e1a0d3c5b8e6f4a2d1c0b9e8f7a6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b");
    await dialog.locator("[data-testid='save-tx-hash']").click();
    await expect
      .poll(async () => (await apiCall("refill", { params: { id: refill.id }, token: investor.token })).txHash)
      .toMatch(/^9f2c4b7e/);

    // The operator sees the payment arrive, a little less than requested, and confirms it.
    await kassaCli("refill", "confirm", refill.id, "--amount", "499.5");
    await readNotifications(investor.token);
    await page.goto(`${base()}/`);
    await screen(page, "cabinet");
    await expect.poll(() => amountOf("[data-testid='balance']")).toSatisfy((a: string | null) => same(a, "499.5"));

    await page.goto(`${base()}/operations`);
    await screen(page, "operations");
    const row = page.locator("[data-testid='operation-row'][data-type='refill']").first();
    await row.waitFor();
    expect(same(await row.getAttribute("data-amount"), "499.5")).toBe(true);
  });

  it("opens a deposit whose preview equals what the server creates, accrues it as time passes, and closes it early for exactly the stated amounts", async () => {
    await page.goto(`${base()}/deposits`);
    await screen(page, "deposits");
    await page.locator("[data-testid='open-deposit']").click();
    await page.locator("select[name='planId']").selectOption("start");
    await page.locator("input[name='amount']").fill("123.45");
    await expect
      .poll(() => amountOf("[data-testid='preview-daily-income']"))
      .toSatisfy((a: string | null) => same(a, "1.2345"));
    const preview = {
      dailyIncome: (await amountOf("[data-testid='preview-daily-income']")) as string,
      totalAtEnd: (await amountOf("[data-testid='preview-total-at-end']")) as string,
    };
    await page.locator("[data-testid='submit']").first().click();
    // The confirmation states what the preview said; only its button opens the deposit.
    const confirmation = page.locator("[data-testid='deposit-confirmation']");
    await confirmation.waitFor();
    expect(
      same(
        await confirmation.locator("[data-testid='confirm-daily-income']").getAttribute("data-amount"),
        preview.dailyIncome,
      ),
    ).toBe(true);
    await confirmation.locator("[data-testid='deposit-confirm']").click();
    const row = page.locator("[data-testid='deposit-row']").first();
    await row.waitFor();

    const { items } = await apiCall("deposits", { token: investor.token });
    const deposit = items[0] as Deposit;
    expect(same(deposit.amount, "123.45")).toBe(true);
    expect(same(deposit.dailyIncome, preview.dailyIncome)).toBe(true);
    expect(same(deposit.totalAtEnd, preview.totalAtEnd)).toBe(true);

    // Three days pass on the server: three daily incomes are held on the deposit, none on the balance.
    await kassaCli("clock", "advance", "3");
    await readNotifications(investor.token);
    await page.reload();
    await screen(page, "deposits");
    const held = new Big(deposit.dailyIncome).times(3).toString();
    await expect
      .poll(() =>
        page.locator(`[data-deposit-id='${deposit.id}'] [data-testid='deposit-accrued']`).getAttribute("data-amount"),
      )
      .toSatisfy((a: string | null) => same(a, held));

    // Closing early: the dialog states what comes back and what is forfeited, and that is what happens.
    await page.locator(`[data-deposit-id='${deposit.id}'] [data-testid='deposit-close']`).click();
    const dialog = page.locator("[data-testid='close-dialog']");
    await dialog.waitFor();
    expect(same(await dialog.locator("[data-testid='close-returned']").getAttribute("data-amount"), "123.45")).toBe(
      true,
    );
    expect(same(await dialog.locator("[data-testid='close-forfeited']").getAttribute("data-amount"), held)).toBe(true);
    await dialog.locator("[data-testid='close-confirm']").click();
    await expect
      .poll(() => page.locator(`[data-deposit-id='${deposit.id}']`).getAttribute("data-status"))
      .toBe("closed");

    const balance = await apiCall("balance", { token: investor.token });
    expect(same(balance.currencies.USDT, "499.5")).toBe(true);
  });

  it("refuses a deposit the balance cannot pay with 'Not enough funds' as it is typed, and keeps the amount", async () => {
    await page.goto(`${base()}/deposits`);
    await screen(page, "deposits");
    await page.locator("[data-testid='open-deposit']").click();
    await page.locator("select[name='planId']").selectOption("start");
    await page.locator("input[name='amount']").fill("1000");
    // Said as the user types, next to the field, with no result computed; a tap sends nothing.
    const note = page.locator("[data-field-error='amount']");
    await expect.poll(() => note.innerText()).toBe(text("en", "errors", "INSUFFICIENT_FUNDS"));
    expect(await page.locator("[data-testid='preview-total-at-end']").getAttribute("data-amount")).toBeNull();
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/funds/deposits")) posts.push(r.url());
    });
    await page.locator("[data-testid='submit']").first().click();
    await page.waitForTimeout(300);
    expect(posts).toEqual([]);
    expect(await page.locator("input[name='amount']").inputValue()).toBe("1000");
  });
});
