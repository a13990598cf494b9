/**
 * Details: a tap on an operation, a refill, a deposit, a withdrawal or a referral opens what the server
 * keeps about it (amounts, status, the whole address and transaction hash with a copy button, dates);
 * a deep link to a withdrawal or a deposit opens that one's details.
 */
import Big from "big.js";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import {
  type ApiSession,
  base,
  codeFromOutbox,
  readNotifications,
  screen,
  signUpThroughApi,
  useSession,
} from "./support/app";
import { phoneContext, releaseChromium, sharedChromium } from "./support/browser";
import { creditedRefill, kassaCli } from "./support/cli";
import { text } from "./support/locales";

const TRC20_WALLET = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
const TX_HASH = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

let browser: Browser;
let context: BrowserContext;
let page: Page;
let investor: ApiSession;
let partner: ApiSession;
let withdrawalId: string;
let depositId: string;

beforeAll(async () => {
  investor = await signUpThroughApi();
  partner = await signUpThroughApi(investor.login);
  const token = investor.token;
  await creditedRefill(token, "300");
  const wallets = [{ paymentSystemId: "usdt-trc20", address: TRC20_WALLET }];
  const saved = await apiCall("updateWallets", { body: { wallets }, token });
  // A new address may need a code (its own purpose, `wallet`): then the same wallets with the code.
  if ("walletCode" in saved && saved.walletCode) {
    const code = await codeFromOutbox(investor.login, "wallet");
    await apiCall("updateWallets", { body: { wallets, code }, token });
  }
  const deposit = await apiCall("createDeposit", {
    body: { planId: "start", currency: "USDT", amount: "100", autoInvest: false },
    token,
  });
  depositId = deposit.id;
  const requested = await apiCall("requestWithdrawal", {
    body: { paymentSystemId: "usdt-trc20", amount: "50" },
    token,
  });
  withdrawalId = requested.withdrawal.id;
  const code = await codeFromOutbox(investor.login, "withdrawal");
  await apiCall("validateWithdrawal", { body: { withdrawalId, code }, token });
  await kassaCli("withdrawal", "success", withdrawalId, "--tx", TX_HASH);
  await readNotifications(investor.token);

  browser = await sharedChromium();
  context = await phoneContext(browser);
  await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base() });
  await useSession(context, investor);
  page = await context.newPage();
}, 120_000);
afterAll(async () => {
  await context?.close();
  await releaseChromium(browser);
});

const sheet = (testId: string) => page.locator(`[data-testid='${testId}']`);
const closeSheet = async (testId: string) => {
  await page.locator("[data-testid='details-close']").click();
  await sheet(testId).waitFor({ state: "detached" });
};

describe("details", () => {
  it("an operation opens with its signed amount, date and id", async () => {
    await page.goto(`${base()}/operations`);
    await screen(page, "operations");
    const row = page.locator("[data-testid='operation-row'][data-type='plan']").first();
    const id = (await row.getAttribute("data-operation-id")) as string;
    await row.click();
    await sheet("operation-details").waitFor();
    const amount = sheet("operation-details-amount").locator("[data-amount]");
    expect(new Big((await amount.getAttribute("data-amount")) ?? "0").eq("-100")).toBe(true);
    expect(await sheet("operation-details-id").innerText()).toBe(id);
    await closeSheet("operation-details");
  });

  it("a withdrawal opens with the whole address, the fee, what arrives and the hash, which copies", async () => {
    await page.goto(`${base()}/withdrawal`);
    await screen(page, "withdrawal");
    await page.locator(`[data-withdrawal-id='${withdrawalId}'] [data-testid='withdrawal-open']`).click();
    await sheet("withdrawal-details").waitFor();
    expect(await sheet("withdrawal-details-wallet").innerText()).toBe(TRC20_WALLET);
    expect(await sheet("withdrawal-details-tx-hash").innerText()).toBe(TX_HASH);
    expect(await sheet("withdrawal-details-status").innerText()).toBe(text("en", "enums", "withdrawalStatus.success"));
    const fee = new Big((await sheet("withdrawal-details-fee").getAttribute("data-amount")) ?? "x");
    const receive = new Big((await sheet("withdrawal-details-receive").getAttribute("data-amount")) ?? "x");
    expect(fee.plus(receive).eq("50")).toBe(true);
    expect(fee.gt(0)).toBe(true);
    await sheet("withdrawal-details-tx-hash-copy").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(TX_HASH);
    await closeSheet("withdrawal-details");

    // The deep link the bot sends (withdrawal_<id>) lands on the withdrawal screen with it open.
    await page.goto(`${base()}/withdrawal?application=${withdrawalId}`);
    await sheet("withdrawal-details").waitFor();
    expect(await sheet("withdrawal-details-wallet").innerText()).toBe(TRC20_WALLET);
    expect(await sheet("withdrawal-details-resume").count()).toBe(0);
    await closeSheet("withdrawal-details");
  });

  it("a deep link to a withdrawal awaiting its code offers the code; one no longer listed says so", async () => {
    const requested = await apiCall("requestWithdrawal", {
      body: { paymentSystemId: "usdt-trc20", amount: "20" },
      token: investor.token,
    });
    const awaiting = requested.withdrawal.id;
    await page.goto(`${base()}/withdrawal?application=${awaiting}`);
    await sheet("withdrawal-details").waitFor();
    await sheet("withdrawal-details-resume").click();
    await sheet("withdrawal-details").waitFor({ state: "detached" });
    await page.locator("input[name='code']").first().waitFor();
    expect(await page.locator("[data-testid='withdrawal-not-listed']").count()).toBe(0);

    await page.goto(`${base()}/withdrawal?application=${crypto.randomUUID()}`);
    await screen(page, "withdrawal");
    await expect
      .poll(() => page.locator("[data-testid='withdrawal-not-listed']").textContent(), { timeout: 15_000 })
      .toBe(text("en", "withdrawal", "history.notListed"));
  });

  it("a deposit opens with its plan figures and dates, also by deep link", async () => {
    await page.goto(`${base()}/deposits?deposit=${depositId}`);
    await sheet("deposit-details").waitFor();
    expect(new Big((await sheet("deposit-details-amount").getAttribute("data-amount")) ?? "x").eq("100")).toBe(true);
    expect(await sheet("deposit-details-id").innerText()).toBe(depositId);
    await closeSheet("deposit-details");
    await page.locator(`[data-deposit-id='${depositId}'] [data-testid='deposit-open']`).click();
    await sheet("deposit-details").waitFor();
    await closeSheet("deposit-details");
  });

  it("a refill opens its dialog with the status and the dates", async () => {
    await page.goto(`${base()}/refill`);
    await screen(page, "refill");
    await page.locator("[data-testid='refill-row']").first().click();
    await sheet("wallet-dialog").waitFor();
    expect(await sheet("refill-status").innerText()).toBe(text("en", "enums", "refillStatus.replenished"));
    expect(await sheet("wallet-dialog").innerText()).toContain(text("en", "refill", "wallet.processed"));
  });

  it("a referral opens what GET /user/referral/{id} tells: line, inviter, invitees", async () => {
    await page.goto(`${base()}/partners`);
    await screen(page, "partners");
    await page
      .locator(`[data-testid='referral-row'][data-login='${partner.login}'] [data-testid='referral-open']`)
      .click();
    await sheet("referral-details").waitFor();
    await expect.poll(() => sheet("referral-details-inviter").innerText()).toBe(investor.login);
    expect(await sheet("referral-details-invited").innerText()).toBe("0");
    expect(await sheet("referral-details").innerText()).toContain(partner.login);
  });
});
