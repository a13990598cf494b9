/**
 * Partners and withdrawal end to end, in Chromium against the real server: a three-line referral chain
 * registered through referral links, a deposit at the bottom and the income of each line; withdrawal
 * refused with the catalogue's messages until there is a wallet, a refill and a deposit; then a full
 * withdrawal with the code from the outbox, marked successful by the operator and found by the filters.
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
  registerThroughUi,
  screen,
  signUpThroughApi,
  useSession,
} from "./support/app";
import { chromiumForFile, phoneContext } from "./support/browser";
import { creditedRefill, kassaCli } from "./support/cli";
import { text } from "./support/locales";

const TRC20_WALLET = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
let browser: Browser;
chromiumForFile((shared) => {
  browser = shared;
});

async function englishPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await phoneContext(browser);
  await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
  return { context, page: await context.newPage() };
}

async function login(loginName: string, password: string): Promise<string> {
  return (await apiCall("login", { body: { login: loginName, password } })).refreshToken;
}

/** A refill of `amount` USDT, confirmed by the operator's command line. */
async function fund(token: string, amount: string) {
  await creditedRefill(token, amount);
  await readNotifications(token);
}

describe("partners", () => {
  it("pays each line of a three-line chain its percentage of a deposit at the bottom", async () => {
    const { context, page } = await englishPage();
    // Each investor follows the referral link of the one above, in a browser where nobody is signed in.
    const signOut = async () => {
      await context.clearCookies();
      await page.evaluate(() => localStorage.removeItem("kassa.user"));
    };
    const lineThree = await registerThroughUi(page, "demo");
    await signOut();
    const lineTwo = await registerThroughUi(page, lineThree);
    await signOut();
    const lineOne = await registerThroughUi(page, lineTwo);
    await signOut();
    const bottom = await registerThroughUi(page, lineOne);
    await signOut();

    const percents = (await apiCall("setting", { params: { key: "referralLines" } })).value as string[];
    const principal = "200";
    const bottomToken = await login(bottom, "Ledger2026go");
    await fund(bottomToken, principal);
    await apiCall("createDeposit", {
      body: { planId: "start", currency: "USDT", amount: principal, autoInvest: false },
      token: bottomToken,
    });

    // Each upline sees the bottom investor on its line, and the income that deposit brought it. Signed in through
    // the API in the same browser (signing in is not the subject here), one after another.
    for (const [index, upline] of [lineOne, lineTwo, lineThree].entries()) {
      const expected = new Big(principal).times(percents[index] as string).div(100);
      const p = page;
      const { refreshToken: uplineToken, user } = await apiCall("login", {
        body: { login: upline, password: "Ledger2026go" },
      });
      await signOut();
      await context.addCookies([{ name: "kassa_token", value: uplineToken, url: base() }]);
      await p.evaluate((u) => localStorage.setItem("kassa.user", JSON.stringify(u)), user);
      await p.goto(`${base()}/partners`);
      await screen(p, "partners");
      const row = p.locator(`[data-testid='referral-row'][data-login='${bottom}']`);
      await row.waitFor();
      expect(await row.getAttribute("data-line")).toBe(String(index + 1));
      // What the bottom investor brought: the line's referral income plus, from line 2 up, the matching
      // on the income of the line below — exactly what the upline's ledger holds, as these are new accounts.
      const ledger = await apiCall("operations", { query: { limit: 100 }, token: uplineToken });
      const earned = ledger.items
        .filter((o) => o.type === "referral" || o.type === "matching")
        .reduce((sum, o) => sum.plus(o.amount), new Big(0));
      const referralIncome = ledger.items.filter((o) => o.type === "referral");
      expect(referralIncome.map((o) => new Big(o.amount).toString())).toEqual([expected.toString()]);
      const profit = await row.locator("[data-testid='referral-profit']").getAttribute("data-amount");
      expect(new Big(profit ?? "0").toString()).toBe(earned.toString());
      // The link to invite more is the upline's own.
      expect(await p.locator("[data-testid='referral-link-web']").innerText()).toContain(`/register/${upline}`);
      expect(await p.locator("[data-testid='referral-link-telegram']").innerText()).toContain(`startapp=ref_${upline}`);

      // The history, reached in the app (as a tap on a link does).
      await p.evaluate(() => {
        history.pushState({}, "", "/operations");
        dispatchEvent(new PopStateEvent("popstate"));
      });
      await screen(p, "operations");
      const income = p.locator("[data-testid='operation-row'][data-type='referral']").first();
      await income.waitFor();
      expect(new Big((await income.getAttribute("data-amount")) ?? "0").eq(expected)).toBe(true);
    }
    await context.close();
  });
});

describe("withdrawal", () => {
  let investor: ApiSession;
  let page: Page;
  let context: BrowserContext;

  beforeAll(async () => {
    investor = await signUpThroughApi();
    ({ context, page } = await englishPage());
    await useSession(context, investor);
  });
  afterAll(async () => {
    await context?.close();
  });

  const formError = () => page.locator("[data-testid='form-error']").innerText();

  async function requestWithdrawal(amount: string) {
    await page.goto(`${base()}/withdrawal`);
    await screen(page, "withdrawal");
    await page.locator("select[name='paymentSystemId']").selectOption("usdt-trc20");
    await page.locator("input[name='amount']").fill(amount);
    await page.locator("[data-testid='submit']").first().click();
  }

  it("refuses with the catalogue's messages until there is a wallet, a refill and a deposit", async () => {
    await requestWithdrawal("20");
    await expect.poll(formError).toBe(text("en", "errors", "NO_WITHDRAWAL_WALLET"));

    await page.locator("input[name='wallet']").fill(TRC20_WALLET);
    await page.locator("[data-testid='save-wallet']").click();
    // A new address is stored with the code sent for it, entered in the sheet that opens.
    const walletCode = page.locator("form[data-step='code']", {
      has: page.locator("[data-testid='wallet-code-note']"),
    });
    await walletCode.locator("input[name='code']").fill(await codeFromOutbox(investor.login, "wallet"));
    await walletCode.locator("[data-testid='submit']").click();
    await expect.poll(async () => (await apiCall("wallets", { token: investor.token }))[0]?.address).toBe(TRC20_WALLET);
    await requestWithdrawal("20");
    await expect.poll(formError).toBe(text("en", "errors", "DEPOSIT_AND_REFILL_REQUIRED"));

    await fund(investor.token, "300");
    await requestWithdrawal("20");
    await expect.poll(formError).toBe(text("en", "errors", "DEPOSIT_REQUIRED"));
    expect(await page.locator("input[name='amount']").inputValue()).toBe("20");
  });

  it("withdraws with the code from the outbox; the operator marks it successful; the filters find it", async () => {
    await apiCall("createDeposit", {
      body: { planId: "start", currency: "USDT", amount: "100", autoInvest: false },
      token: investor.token,
    });
    await requestWithdrawal("50");
    await page.locator("form[data-step='code']").waitFor();
    await page.locator("input[name='code']").fill("000000");
    await page.locator("[data-testid='submit']").first().click();
    await expect.poll(formError).toContain(text("en", "errors", "CODE_MISMATCH"));
    await page.locator("input[name='code']").fill(await codeFromOutbox(investor.login, "withdrawal"));
    await page.locator("[data-testid='submit']").first().click();

    const row = page.locator("[data-testid='withdrawal-row']").first();
    // "pending" to the investor from its request on; confirmed once its code is taken (no longer awaiting it).
    await expect.poll(() => row.getAttribute("data-status")).toBe("pending");
    await expect.poll(() => row.getAttribute("data-awaiting-code")).toBeNull();
    const id = (await row.getAttribute("data-withdrawal-id")) as string;
    expect(new Big((await row.getAttribute("data-amount")) ?? "0").eq("50")).toBe(true);
    const balance = await apiCall("balance", { token: investor.token });
    expect(new Big(balance.currencies.USDT as string).eq("150")).toBe(true);

    await kassaCli(
      "withdrawal",
      "success",
      id,
      "--tx",
      "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
    );
    await readNotifications(investor.token);
    await page.reload();
    await screen(page, "withdrawal");
    await expect.poll(() => page.locator(`[data-withdrawal-id='${id}']`).getAttribute("data-status")).toBe("success");

    await page.locator("select[name='status']").selectOption("success");
    await page.locator(`[data-withdrawal-id='${id}']`).waitFor();
    await page.locator("select[name='status']").selectOption("rejected");
    await expect.poll(() => page.locator(`[data-withdrawal-id='${id}']`).count()).toBe(0);
    await page.locator("select[name='status']").selectOption("");
    await page.locator("select[name='currency']").selectOption("BTC");
    await expect.poll(() => page.locator(`[data-withdrawal-id='${id}']`).count()).toBe(0);
    await page.locator("select[name='currency']").selectOption("USDT");
    await page.locator(`[data-withdrawal-id='${id}']`).waitFor();
  });
});
