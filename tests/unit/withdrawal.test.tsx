/** The withdrawal screen: request → code → confirmed, every refusal of the catalogue in its place, the resend wait, the wallet and the history. */
import type { PaymentSystem, Withdrawal } from "@contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setTelegramBridge } from "@/tma/bridge";
import { aPaymentSystem } from "./fixtures";
import { DEMO_USER, fakeBridge, type RouteReply, renderApp, stubRoutes } from "./test-utils";

const SYSTEMS: PaymentSystem[] = [
  aPaymentSystem({ withdrawalFeePercent: "1.5" }),
  aPaymentSystem({
    id: "ton-closed",
    name: "Toncoin",
    currency: "TON",
    network: "TON",
    withdrawalEnabled: false,
    minWithdrawal: "1",
    maxWithdrawal: "100",
  }),
];

const WALLET = "TXyzWalletAddress000000000000001";

const AWAITING: Withdrawal = {
  id: "w1",
  status: "pending",
  awaitingCode: true,
  paymentSystemId: "usdt-trc20",
  currency: "USDT",
  network: "TRC20",
  wallet: WALLET,
  amount: "100.01",
  fee: "1.500150",
  amountToReceive: "98.509850",
  txHash: null,
  createdAt: "2026-01-02T10:00:00.000Z",
  processedAt: null,
};

const PAID: Withdrawal = {
  ...AWAITING,
  id: "w0",
  status: "success",
  awaitingCode: false,
  amount: "50",
  fee: "0.75",
  amountToReceive: "49.25",
  txHash: "0xfeedbeefcafe0000111122223333",
  processedAt: "2026-01-03T10:00:00.000Z",
};

const CODE_SENT = { message: "Request successfully sent" as const, resendAfterSeconds: 60, expiresInSeconds: 600 };

/** An error reply (any route's). */
type Refusal = { status: number; body: { code: string; message: string; [key: string]: unknown } };

function refusal(code: string, status: number, extra: Record<string, unknown> = {}): Refusal {
  return { status, body: { code, message: code, ...extra } };
}

interface Setup {
  wallets?: { paymentSystemId: string; address: string }[];
  history?: Withdrawal[];
  request?: (body: unknown) => RouteReply<"requestWithdrawal">;
  validate?: (body: unknown) => RouteReply<"validateWithdrawal">;
  resend?: () => RouteReply<"resendWithdrawalCode">;
  cancel?: () => RouteReply<"cancelWithdrawal">;
  updateWallets?: (body: unknown) => RouteReply<"updateWallets">;
  resendAfterSeconds?: number;
  /** The USDT balance `GET /user/balance` answers (no balance call answered when absent). */
  usdt?: string;
}

function setup(options: Setup = {}) {
  const sent: { path: string; body: unknown }[] = [];
  const historyQueries: string[] = [];
  const bodyOf = async (request: Request) => {
    const text = await request.text();
    return text ? JSON.parse(text) : undefined;
  };
  const fetchMock = stubRoutes({
    paymentSystems: { body: SYSTEMS },
    ...(options.usdt === undefined
      ? {}
      : {
          balance: {
            body: {
              type: "balance",
              currentCurrency: "USDT",
              currencies: { USDT: options.usdt, BTC: "0", ETH: "0", TON: "0" },
            },
          },
        }),
    wallets: { body: options.wallets ?? [{ paymentSystemId: "usdt-trc20", address: WALLET }] },
    updateWallets: () => options.updateWallets?.(sent.at(-1)?.body) ?? { body: { wallets: [], walletCode: null } },
    withdrawals: (request) => {
      historyQueries.push(new URL(request.url).search);
      const items = options.history ?? [PAID];
      return { body: { items, total: items.length, page: 1, limit: 10 } };
    },
    requestWithdrawal: () =>
      options.request?.(sent.at(-1)?.body) ?? {
        body: {
          withdrawal: AWAITING,
          code: {
            ...CODE_SENT,
            resendAfterSeconds: options.resendAfterSeconds ?? 60,
            channel: "email",
            destination: "d***@example.com",
          },
        },
      },
    validateWithdrawal: () => options.validate?.(sent.at(-1)?.body) ?? { body: { ...AWAITING, awaitingCode: false } },
    resendWithdrawalCode: () => options.resend?.() ?? { body: CODE_SENT },
    cancelWithdrawal: () => options.cancel?.() ?? { body: AWAITING },
  });
  // Keep what each POST/PATCH sent, in order, before the handler answers.
  const original = fetchMock.getMockImplementation();
  fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method && init.method !== "GET") {
      const request = new Request(new URL(String(input), "http://localhost"), init);
      sent.push({ path: new URL(request.url).pathname.replace(/^\/api/, ""), body: await bodyOf(request) });
    }
    return (original as NonNullable<typeof original>)(input, init);
  });
  return { sent, historyQueries };
}

async function form() {
  return waitFor(() => {
    const found = document.querySelector<HTMLFormElement>("form[data-step='request']");
    if (!found) throw new Error("no form yet");
    return found;
  });
}

function typeAmount(value: string) {
  fireEvent.change(document.querySelector("input[name='amount']") as HTMLInputElement, { target: { value } });
}

async function toCodeStep() {
  await form();
  await screen.findByTestId("wallet-address");
  typeAmount("100.01");
  fireEvent.click(screen.getByTestId("submit"));
  return waitFor(() => {
    const found = document.querySelector<HTMLFormElement>("form[data-step='code']");
    if (!found) throw new Error("no code step yet");
    return found;
  });
}

function typeCode(value: string) {
  fireEvent.change(document.querySelector("input[name='code']") as HTMLInputElement, { target: { value } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe("withdrawal form", () => {
  it("inside Telegram a double press of the Main button sends the request once, and the code once", async () => {
    const fake = fakeBridge("weba");
    setTelegramBridge(fake.bridge);
    try {
      const { sent } = setup();
      await renderApp({ path: "/withdrawal", user: DEMO_USER });
      await form();
      await screen.findByTestId("wallet-address");
      typeAmount("100.01");
      // The Main button as the client shows it now (the last thing the app set on it).
      const shown = () => fake.bridge.mainButton.set.mock.calls.at(-1)?.[0];
      // Both presses of a double tap, delivered before the loader shows (Telegram Web A does so), once the button
      // the user taps is on screen: pressed before, they would reach the step before it.
      const pressTwice = async (text: string) => {
        await waitFor(() => expect(shown()).toMatchObject({ text, isEnabled: true, isVisible: true }));
        act(() => {
          fake.pressMain();
          fake.pressMain();
        });
      };
      await pressTwice("Get a confirmation code");
      await waitFor(() => expect(document.querySelector("form[data-step='code']")).toBeTruthy());
      expect(sent.filter((s) => s.path === "/funds/payments/request")).toHaveLength(1);
      typeCode("123456");
      await pressTwice("Confirm withdrawal");
      await waitFor(() => expect(sent.filter((s) => s.path === "/funds/payments/validate")).toHaveLength(1));
      await screen.findByText("Withdrawal confirmed: 98.50 USDT is on its way");
      expect(sent.filter((s) => s.path === "/funds/payments/validate")).toHaveLength(1);
    } finally {
      setTelegramBridge(null);
    }
  });

  it("shows the available balance, refuses more as the user types ('Not enough funds'), and Max fills the balance", async () => {
    const { sent } = setup({ usdt: "120.5" });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await form();
    const available = await screen.findByTestId("withdrawal-available");
    expect(available.getAttribute("data-amount")).toBe("120.5");
    expect(available.textContent).toBe("Available: 120.50 USDT");
    typeAmount("120.51");
    expect(document.querySelector("[data-field-error='amount']")?.textContent).toBe("Not enough funds");
    expect(screen.queryByTestId("withdrawal-preview")).toBeNull();
    fireEvent.click(screen.getByTestId("submit"));
    expect(sent.filter((s) => s.path === "/funds/payments/request")).toEqual([]);
    fireEvent.click(screen.getByTestId("withdrawal-max"));
    expect((document.querySelector("input[name='amount']") as HTMLInputElement).value).toBe("120.5");
    expect(document.querySelector("[data-field-error='amount']")).toBeNull();
    expect(screen.getByTestId("withdrawal-to-receive").getAttribute("data-amount")).toBe("118.6925");
  });

  it("the code step confirms the amount, fee, what arrives and the whole address, and says where the code went", async () => {
    setup();
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    const step = await toCodeStep();
    expect(within(step).getByTestId("code-step-wallet").textContent).toBe(`${WALLET} · TRC20`);
    expect(within(step).getByTestId("code-step-amount").getAttribute("data-amount")).toBe("100.01");
    expect(step.querySelector(".withdrawal-preview [data-amount='98.509850']")).toBeTruthy();
    const destination = within(step).getByTestId("code-destination");
    expect(destination.getAttribute("data-channel")).toBe("email");
    expect(destination.textContent).toBe("The code was sent by e-mail to d***@example.com.");
  });

  it("Max stops at the system's maximum when the balance is larger", async () => {
    setup({ usdt: "5000.123456" });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await form();
    fireEvent.click(await screen.findByTestId("withdrawal-max"));
    expect((document.querySelector("input[name='amount']") as HTMLInputElement).value).toBe("1000");
    expect(document.querySelector("[data-field-error='amount']")).toBeNull();
  });

  it("offers only systems open for withdrawals, with limits and fee, and previews the fee and the amount received exactly", async () => {
    setup();
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await form();
    const select = document.querySelector<HTMLSelectElement>("select[name='paymentSystemId']") as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(["usdt-trc20"]);
    expect(screen.getByTestId("withdrawal-limits").textContent).toBe("From 10.00 USDT to 1,000.00 USDT, fee 1.5%");
    typeAmount("100,01");
    // 100.01 × 1.5 % = 1.50015 (USDT keeps 6 decimals); 100.01 − 1.50015 = 98.50985.
    expect(screen.getByTestId("withdrawal-fee").getAttribute("data-amount")).toBe("1.50015");
    expect(screen.getByTestId("withdrawal-to-receive").getAttribute("data-amount")).toBe("98.50985");
    expect(screen.getByTestId("withdrawal-to-receive").textContent).toBe("98.50985 USDT");
  });

  it("says the minimum and the maximum next to the amount, with their values, and sends nothing", async () => {
    const { sent } = setup();
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await form();
    typeAmount("5");
    expect(document.querySelector("[data-field-error='amount']")?.textContent).toBe(
      "The amount is below the minimum of 10.00 USDT",
    );
    typeAmount("1000.01");
    expect(document.querySelector("[data-field-error='amount']")?.textContent).toBe(
      "The amount is above the maximum of 1,000.00 USDT",
    );
    fireEvent.click(screen.getByTestId("submit"));
    expect(sent).toEqual([]);
  });

  it("requests, enters the code, confirms: success alert, back to the form, history refreshed", async () => {
    const { sent, historyQueries } = setup();
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await screen.findAllByTestId("withdrawal-row");
    const step = await toCodeStep();
    expect(sent[0]).toEqual({
      path: "/funds/payments/request",
      body: { paymentSystemId: "usdt-trc20", amount: "100.01" },
    });
    expect(within(step).getByTestId("code-note").textContent).toContain("100.01 USDT");
    const listed = historyQueries.length;
    typeCode("123 456");
    expect((document.querySelector("input[name='code']") as HTMLInputElement).value).toBe("123456");
    fireEvent.click(within(step).getByTestId("submit"));
    await screen.findByText("Withdrawal confirmed: 98.50 USDT is on its way");
    expect(sent[1]).toEqual({ path: "/funds/payments/validate", body: { withdrawalId: "w1", code: "123456" } });
    await form();
    await waitFor(() => expect(historyQueries.length).toBeGreaterThan(listed));
  });

  it.each([
    ["NO_WITHDRAWAL_WALLET", 400, "No withdrawal wallet specified"],
    ["DEPOSIT_REQUIRED", 403, "You must have a deposit to withdraw"],
    ["DEPOSIT_AND_REFILL_REQUIRED", 403, "To withdraw, you must have a deposit and a recharge"],
    ["INSUFFICIENT_FUNDS", 409, "Not enough funds"],
    ["INTERNAL", 500, "An error occurred, try again later"],
  ])("a request refused with %s says '%s' and keeps the input", async (code, status, text) => {
    setup({ request: () => refusal(code, status) });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await form();
    await screen.findByTestId("wallet-address");
    typeAmount("100.01");
    fireEvent.click(screen.getByTestId("submit"));
    expect((await screen.findByTestId("form-error")).textContent).toBe(text);
    expect((document.querySelector("input[name='amount']") as HTMLInputElement).value).toBe("100.01");
    expect(document.querySelector("form[data-step='code']")).toBeNull();
  });

  it("shows the server's amount rule next to the field", async () => {
    setup({ request: () => refusal("VALIDATION_FAILED", 400, { fields: { amount: "amountAboveMaximum" } }) });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await form();
    typeAmount("100");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() =>
      expect(document.querySelector("[data-field-error='amount']")?.textContent).toBe(
        "The amount is above the maximum of 1,000.00 USDT",
      ),
    );
  });

  it.each([
    ["CODE_MISMATCH", 400, "The code doesn't match. Try again"],
    ["CODE_EXPIRED", 410, "The verification code is out of date"],
    ["CODE_INVALID", 400, "The code is not valid"],
  ])("a code refused with %s says '%s' and keeps the code step and the code", async (code, status, text) => {
    setup({ validate: () => refusal(code, status, code === "CODE_MISMATCH" ? { params: { attemptsLeft: "4" } } : {}) });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    const step = await toCodeStep();
    typeCode("000000");
    fireEvent.click(within(step).getByTestId("submit"));
    const error = await screen.findByTestId("form-error");
    expect(error.querySelector("p")?.textContent).toBe(text);
    if (code === "CODE_MISMATCH") expect(error.textContent).toContain("Attempts left: 4");
    expect(document.querySelector("form[data-step='code']")).not.toBeNull();
    expect((document.querySelector("input[name='code']") as HTMLInputElement).value).toBe("000000");
  });

  it("asks for 6 digits before sending the code", async () => {
    const { sent } = setup();
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    const step = await toCodeStep();
    typeCode("123");
    fireEvent.click(within(step).getByTestId("submit"));
    // The rule's text loads with the validation texts, when first shown.
    await waitFor(() =>
      expect(document.querySelector("[data-field-error='code']")?.textContent).toBe("Enter the 6-digit code"),
    );
    expect(sent).toHaveLength(1);
  });

  it("cancel returns the funds and goes back to the form; a late cancel says 'An error occurred, try again later'", async () => {
    const { sent } = setup();
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    const step = await toCodeStep();
    fireEvent.click(within(step).getByTestId("cancel-withdrawal"));
    await screen.findByText("Withdrawal cancelled. The funds are back on your balance");
    expect(sent.at(-1)?.path).toBe("/funds/payments/w1/cancel");
    await form();
  });

  it("a cancel refused with WITHDRAWAL_FAILED says so in the code step", async () => {
    setup({ cancel: () => refusal("WITHDRAWAL_FAILED", 400) });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    const step = await toCodeStep();
    fireEvent.click(within(step).getByTestId("cancel-withdrawal"));
    expect((await screen.findByTestId("form-error")).textContent).toBe("An error occurred, try again later");
  });

  it("resend waits with a countdown, then asks for a new code and waits again", async () => {
    const { sent } = setup({
      resendAfterSeconds: 1,
      resend: () => ({ body: { ...CODE_SENT, resendAfterSeconds: 60 } }),
    });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await toCodeStep();
    const resend = screen.getByTestId("resend") as HTMLButtonElement;
    expect(resend.disabled).toBe(true);
    expect(resend.textContent).toBe("Resend in 0:01");
    // The countdown's second passes in real time: waited for under the suite's ceiling, not timed.
    await waitFor(() => expect((screen.getByTestId("resend") as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByTestId("resend").textContent).toBe("Resend code");
    fireEvent.click(screen.getByTestId("resend"));
    await waitFor(() => expect(screen.getByTestId("resend").textContent).toBe("Resend in 1:00"));
    expect((screen.getByTestId("resend") as HTMLButtonElement).disabled).toBe(true);
    expect(sent.at(-1)?.path).toBe("/funds/payments/w1/resend");
  });
});

describe("withdrawal wallet", () => {
  it("a new address asks for the code sent for it in a sheet, and is stored with that code", async () => {
    const NEW = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
    const { sent } = setup({
      wallets: [],
      updateWallets: (body) =>
        (body as { code?: string }).code
          ? { body: { wallets: [{ paymentSystemId: "usdt-trc20", address: NEW }], walletCode: null } }
          : { body: { wallets: [], walletCode: { ...CODE_SENT, channel: "email", destination: "d***@example.com" } } },
    });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await form();
    const input = await waitFor(() => {
      const found = document.querySelector<HTMLInputElement>("input[name='wallet']");
      if (!found) throw new Error("no wallet field yet");
      return found;
    });
    fireEvent.change(input, { target: { value: NEW } });
    fireEvent.click(screen.getByTestId("save-wallet"));

    // The code step, in a sheet: which address in which network, and where the code went.
    const note = await screen.findByTestId("wallet-code-note");
    expect(note.textContent).toBe(
      `We sent a 6-digit code. Enter it to save ${NEW} as your TRC20 wallet for withdrawals.`,
    );
    const step = note.closest("form") as HTMLFormElement;
    expect(step.getAttribute("data-step")).toBe("code");
    expect(step.closest("form[data-step='request']")).toBeNull();
    expect(within(step).getByTestId("code-destination").textContent).toBe(
      "The code was sent by e-mail to d***@example.com.",
    );
    expect(sent.at(-1)).toEqual({
      path: "/user-data/wallets/update",
      body: { wallets: [{ paymentSystemId: "usdt-trc20", address: NEW }] },
    });

    fireEvent.change(within(step).getByRole("textbox", { name: /code/i }), { target: { value: "123 456" } });
    fireEvent.click(within(step).getByTestId("submit"));
    await screen.findByText(
      "Wallet saved. We have sent a notice about the change to the channel where you receive your codes.",
    );
    expect(sent.at(-1)).toEqual({
      path: "/user-data/wallets/update",
      body: { wallets: [{ paymentSystemId: "usdt-trc20", address: NEW }], code: "123456" },
    });
    // The code's submit did not send the withdrawal form around the wallet.
    expect(sent.some((request) => request.path === "/funds/payments/request")).toBe(false);
    await waitFor(() => expect(screen.queryByTestId("wallet-code-note")).toBeNull());
  });

  it("without a wallet offers an inline field; a refused address is marked next to it", async () => {
    const { sent } = setup({
      wallets: [],
      updateWallets: () => refusal("VALIDATION_FAILED", 400, { fields: { "wallets.0.address": "addressFormat" } }),
    });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await form();
    const input = await waitFor(() => {
      const found = document.querySelector<HTMLInputElement>("input[name='wallet']");
      if (!found) throw new Error("no wallet field yet");
      return found;
    });
    fireEvent.change(input, { target: { value: "not-an-address" } });
    fireEvent.click(screen.getByTestId("save-wallet"));
    await waitFor(() =>
      expect(document.querySelector("[data-field-error='wallet']")?.textContent).toBe(
        "This address is not valid for the network of the selected payment system",
      ),
    );
    expect(sent.at(-1)).toEqual({
      path: "/user-data/wallets/update",
      body: { wallets: [{ paymentSystemId: "usdt-trc20", address: "not-an-address" }] },
    });
    expect(input.value).toBe("not-an-address");
  });
});

describe("withdrawal history", () => {
  it("lists rows with localized status, amounts, shortened wallet and the hash of a success; an awaiting one resumes the code step", async () => {
    setup({ history: [AWAITING, PAID] });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("withdrawal-row")).toHaveLength(2));
    const [awaiting, paid] = screen.getAllByTestId("withdrawal-row") as [HTMLElement, HTMLElement];
    expect(awaiting.getAttribute("data-withdrawal-id")).toBe("w1");
    expect(awaiting.getAttribute("data-status")).toBe("pending");
    expect(awaiting.getAttribute("data-amount")).toBe("100.01");
    expect(awaiting.textContent).toContain("Awaiting code");
    expect(paid.textContent).toContain("Paid out");
    expect(within(paid).getByTestId("withdrawal-wallet").textContent).toBe("TXyzWa…0001 · TRC20");
    expect(within(paid).getByTestId("withdrawal-tx-hash").textContent).toBe("0xfeedbe…223333");
    expect(within(awaiting).queryByTestId("withdrawal-tx-hash")).toBeNull();
    fireEvent.click(within(awaiting).getByTestId("resume-withdrawal"));
    await waitFor(() => expect(document.querySelector("form[data-step='code']")).not.toBeNull());
    expect((screen.getByTestId("resend") as HTMLButtonElement).disabled).toBe(false);
  });

  it("names each outcome truly: rejected with the money back and the operator's note, failed, paid out, awaiting code", async () => {
    const REJECTED: Withdrawal = {
      ...PAID,
      id: "w2",
      status: "rejected",
      txHash: null,
      amount: "20",
      note: "The wallet is on a blocklist",
    };
    const FAILED: Withdrawal = { ...REJECTED, id: "w3", status: "error", note: null };
    setup({ history: [AWAITING, REJECTED, FAILED, PAID] });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("withdrawal-row")).toHaveLength(4));
    const details = async (id: string) => {
      const row = document.querySelector(`[data-withdrawal-id='${id}']`) as HTMLElement;
      fireEvent.click(within(row).getByTestId("withdrawal-open"));
      return screen.findByTestId("withdrawal-details");
    };
    const shut = async () => {
      fireEvent.keyDown(document.activeElement ?? document.body, { key: "Escape" });
      await waitFor(() => expect(screen.queryByTestId("withdrawal-details")).toBeNull());
    };
    const rejected = await details("w2");
    expect(within(rejected).getByTestId("withdrawal-details-status").textContent).toBe("Rejected");
    expect(within(rejected).getByTestId("withdrawal-details-outcome").textContent).toBe(
      "The 20.00 USDT is back on your balance",
    );
    expect(within(rejected).getByTestId("withdrawal-details-note").textContent).toBe("The wallet is on a blocklist");
    await shut();
    const failed = await details("w3");
    expect(within(failed).getByTestId("withdrawal-details-status").textContent).toBe("Failed");
    expect(within(failed).getByTestId("withdrawal-details-outcome").textContent).toBe(
      "The 20.00 USDT is back on your balance",
    );
    expect(within(failed).queryByTestId("withdrawal-details-note")).toBeNull();
    await shut();
    const paid = await details("w0");
    expect(within(paid).getByTestId("withdrawal-details-status").textContent).toBe("Paid out");
    expect(within(paid).queryByTestId("withdrawal-details-outcome")).toBeNull();
    await shut();
    const awaiting = await details("w1");
    expect(awaiting.textContent).toContain("Awaiting code");
    expect(awaiting.textContent).not.toContain("Processing");
  });

  it("sends the currency, status and period filters", async () => {
    const { historyQueries } = setup();
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await screen.findAllByTestId("withdrawal-row");
    fireEvent.change(document.querySelector("select[name='currency']") as HTMLSelectElement, {
      target: { value: "USDT" },
    });
    fireEvent.change(document.querySelector("select[name='status']") as HTMLSelectElement, {
      target: { value: "success" },
    });
    fireEvent.change(document.querySelector("input[name='from']") as HTMLInputElement, {
      target: { value: "2026-01-01" },
    });
    fireEvent.change(document.querySelector("input[name='to']") as HTMLInputElement, {
      target: { value: "2026-01-31" },
    });
    await waitFor(() => {
      const query = new URLSearchParams(historyQueries.at(-1));
      expect(Object.fromEntries(query)).toMatchObject({
        currency: "USDT",
        status: "success",
        from: "2026-01-01",
        to: "2026-01-31",
      });
    });
  });

  it("shows the period in the app's language, refuses From after To without asking the server, and says when a filter hides every row", async () => {
    const { historyQueries } = setup({ history: [] });
    await renderApp({ path: "/withdrawal", user: DEMO_USER });
    await screen.findByTestId("list-empty");
    const from = document.querySelector("input[name='from']") as HTMLInputElement;
    const to = document.querySelector("input[name='to']") as HTMLInputElement;
    fireEvent.change(from, { target: { value: "2026-01-05" } });
    const shown = within(screen.getByTestId("date-field-from")).getByTestId("date-field-shown") as HTMLInputElement;
    expect(shown.value).toBe("Jan 5, 2026");
    await waitFor(() => expect(new URLSearchParams(historyQueries.at(-1)).get("from")).toBe("2026-01-05"));
    // A filter that hides every row says so, not "no withdrawals yet".
    expect((await screen.findByTestId("list-no-match")).textContent).toBe("No withdrawals match the filter");

    const asked = historyQueries.length;
    fireEvent.change(to, { target: { value: "2026-01-01" } });
    expect(screen.getByText("The start date is after the end date")).toBeTruthy();
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(historyQueries.slice(asked).some((q) => new URLSearchParams(q).get("to") === "2026-01-01")).toBe(false);

    fireEvent.change(to, { target: { value: "2026-01-31" } });
    await waitFor(() => expect(new URLSearchParams(historyQueries.at(-1)).get("to")).toBe("2026-01-31"));
    expect(screen.queryByText("The start date is after the end date")).toBeNull();
  });
});
