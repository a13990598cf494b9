/** The refill screen: a new refill opens the wallet dialog (address, QR, copy, hash); the history reopens it. */
import type { PaymentSystem, Refill } from "@contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aPaymentSystem } from "./fixtures";
import { DEMO_USER, renderApp, stubRoutes } from "./test-utils";

const SYSTEMS: PaymentSystem[] = [
  aPaymentSystem(),
  aPaymentSystem({
    id: "btc-off",
    name: "Bitcoin",
    currency: "BTC",
    network: "Bitcoin",
    refillEnabled: false,
    minWithdrawal: "0.001",
    maxWithdrawal: "1",
  }),
];

const WAITING: Refill = {
  id: "r1",
  status: "waiting",
  currency: "USDT",
  paymentSystemId: "usdt-trc20",
  network: "TRC20",
  address: "TXyzAddress0000000000000000001",
  amountRequested: "150.5",
  amountCredited: null,
  txHash: null,
  createdAt: "2026-01-02T10:00:00.000Z",
  processedAt: null,
};

const DONE: Refill = { ...WAITING, id: "r0", status: "replenished", amountRequested: "100", amountCredited: "99.5" };

afterEach(() => vi.unstubAllGlobals());

describe("refill", () => {
  it("creates a refill and shows where to pay, with a QR code, a copy button and the hash field", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
    const posts: unknown[] = [];
    const patches: unknown[] = [];
    stubRoutes({
      paymentSystems: { body: SYSTEMS },
      refills: { body: { items: [DONE], total: 1, page: 1, limit: 10 } },
      createRefill: (request) => {
        void request.json().then((body) => posts.push(body));
        return { body: WAITING };
      },
      updateRefill: (request) => {
        void request.json().then((body) => patches.push(body));
        return { body: { ...WAITING, txHash: "0xabcdef0123456789" } };
      },
    });
    await renderApp({ path: "/refill", user: DEMO_USER });
    const select = await waitFor(() => {
      const found = document.querySelector<HTMLSelectElement>("select[name='paymentSystemId']");
      if (!found) throw new Error("no form yet");
      return found;
    });
    // Only the systems open for refills are offered.
    expect([...select.options].map((o) => o.value)).toEqual(["usdt-trc20"]);
    fireEvent.change(document.querySelector("input[name='amount']") as HTMLInputElement, {
      target: { value: "150,50" },
    });
    fireEvent.click(screen.getByTestId("submit"));

    const dialog = await screen.findByTestId("wallet-dialog");
    expect(posts).toEqual([{ paymentSystemId: "usdt-trc20", amount: "150.5" }]);
    expect(within(dialog).getByTestId("refill-address").textContent).toBe(WAITING.address);
    expect(within(dialog).getByTestId("refill-qr").querySelector("svg")).toBeTruthy();
    expect(within(dialog).getByTestId("refill-amount").getAttribute("data-amount")).toBe("150.5");
    fireEvent.click(within(dialog).getByTestId("copy-address"));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(WAITING.address));
    await waitFor(() => expect(within(dialog).getByTestId("copy-address").textContent).toBe("Address copied"));
    // A moment later the button offers the copy again (a second copy is told too).
    await waitFor(() => expect(within(dialog).getByTestId("copy-address").textContent).toBe("Copy address"));

    const hash = dialog.querySelector<HTMLInputElement>("input[name='txHash']") as HTMLInputElement;
    fireEvent.change(hash, { target: { value: "0xabcdef0123456789" } });
    fireEvent.click(within(dialog).getByTestId("save-tx-hash"));
    await waitFor(() => expect(within(dialog).getByTestId("form-success").textContent).toBe("Transaction hash saved"));
    expect(patches).toEqual([{ txHash: "0xabcdef0123456789" }]);
  });

  it("says the amount's rule as it is typed and a bad hash on submit, keeping the input and sending nothing", async () => {
    const posts: unknown[] = [];
    stubRoutes({
      paymentSystems: { body: SYSTEMS },
      refills: { body: { items: [], total: 0, page: 1, limit: 10 } },
      createRefill: (request) => {
        void request.json().then((body) => posts.push(body));
        return { body: WAITING };
      },
    });
    await renderApp({ path: "/refill", user: DEMO_USER });
    const amount = await waitFor(() => {
      const found = document.querySelector<HTMLInputElement>("input[name='amount']");
      if (!found) throw new Error("no form yet");
      return found;
    });
    const note = (name: string) => document.querySelector(`[data-field-error='${name}']`)?.textContent;
    fireEvent.change(amount, { target: { value: "1.1234567" } });
    expect(note("amount")).toBe("At most 6 digits after the decimal point");
    fireEvent.change(amount, { target: { value: "0" } });
    expect(note("amount")).toBe("The amount is below the minimum of 0");
    fireEvent.change(amount, { target: { value: "25.5" } });
    expect(note("amount")).toBeUndefined();
    const hash = document.querySelector("input[name='txHash']") as HTMLInputElement;
    fireEvent.change(hash, { target: { value: "not a hash!" } });
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(note("txHash")).toBe("A transaction hash is 8 to 200 letters, digits or - _ : + / ="));
    expect(posts).toEqual([]);
    expect(amount.value).toBe("25.5");
    expect(hash.value).toBe("not a hash!");
  });

  it("lists refills with their localized status, requested and credited amounts; a row opens the dialog", async () => {
    stubRoutes({
      paymentSystems: { body: SYSTEMS },
      refills: { body: { items: [WAITING, DONE], total: 2, page: 1, limit: 10 } },
    });
    await renderApp({ path: "/refill", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("refill-row")).toHaveLength(2));
    const [waiting, done] = screen.getAllByTestId("refill-row") as [HTMLElement, HTMLElement];
    expect(waiting.getAttribute("data-status")).toBe("waiting");
    expect(waiting.textContent).toContain("Awaiting payment");
    expect(done.textContent).toContain("Credited");
    expect(within(done).getByTestId("refill-credited").getAttribute("data-amount")).toBe("99.5");
    fireEvent.click(done);
    const dialog = await screen.findByTestId("wallet-dialog");
    expect(within(dialog).getByTestId("refill-status").textContent).toBe("Credited");
    expect(dialog.querySelector("input[name='txHash']")).toBeNull();
  });

  it("says 'No refills yet' without a filter and 'No refills match the filter' when a filter hides every row", async () => {
    stubRoutes({
      paymentSystems: { body: SYSTEMS },
      refills: (request) => {
        const status = new URL(request.url).searchParams.get("status");
        return { body: { items: status ? [] : [WAITING], total: status ? 0 : 1, page: 1, limit: 10 } };
      },
    });
    await renderApp({ path: "/refill", user: DEMO_USER });
    await screen.findByTestId("refill-row");
    const status = document.querySelectorAll<HTMLSelectElement>("select[name='status']");
    fireEvent.change(status[status.length - 1] as HTMLSelectElement, { target: { value: "rejected" } });
    expect((await screen.findByTestId("list-no-match")).textContent).toBe("No refills match the filter");
  });

  it("gives each state its own sheet: only a refill awaiting payment shows the address, the QR code and the copy button", async () => {
    const REJECTED: Refill = { ...WAITING, id: "r2", status: "rejected", processedAt: "2026-01-03T10:00:00.000Z" };
    const CREDITED: Refill = { ...DONE, processedAt: "2026-01-03T10:00:00.000Z", txHash: "0xabcdef0123456789" };
    stubRoutes({
      paymentSystems: { body: SYSTEMS },
      refills: { body: { items: [WAITING, CREDITED, REJECTED], total: 3, page: 1, limit: 10 } },
    });
    await renderApp({ path: "/refill", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("refill-row")).toHaveLength(3));
    const open = async (id: string) => {
      fireEvent.click(document.querySelector(`[data-refill-id='${id}']`) as HTMLElement);
      return screen.findByTestId("wallet-dialog");
    };
    const shut = async (dialog: HTMLElement) => {
      fireEvent.click(within(dialog).getByRole("button", { name: "Done" }));
      await waitFor(() => expect(screen.queryByTestId("wallet-dialog")).toBeNull());
    };
    const payable = (dialog: HTMLElement) => ({
      address: within(dialog).queryByTestId("refill-address") !== null || dialog.textContent?.includes(WAITING.address),
      qr: within(dialog).queryByTestId("refill-qr") !== null,
      copy: within(dialog).queryByTestId("copy-address") !== null,
      hashField: dialog.querySelector("input[name='txHash']") !== null,
    });

    const waiting = await open("r1");
    expect(waiting.getAttribute("aria-label")).toBe("Pay to this address");
    expect(within(waiting).getByRole("heading", { level: 2 }).textContent).toBe("Pay to this address");
    expect(payable(waiting)).toEqual({ address: true, qr: true, copy: true, hashField: true });
    await shut(waiting);

    const credited = await open("r0");
    expect(credited.getAttribute("aria-label")).toBe("Refill credited");
    expect(within(credited).getByRole("heading", { level: 2 }).textContent).toBe("Refill credited");
    expect(within(credited).getByTestId("refill-outcome").textContent).toBe(
      "99.50 USDT is on your balance. There is nothing more to pay for this refill.",
    );
    expect(payable(credited)).toEqual({ address: false, qr: false, copy: false, hashField: false });
    expect(within(credited).getByTestId("refill-credited").getAttribute("data-amount")).toBe("99.5");
    expect(within(credited).getByTestId("refill-tx-hash").textContent).toContain("0xabcdef0123456789");
    await shut(credited);

    const rejected = await open("r2");
    expect(rejected.getAttribute("aria-label")).toBe("Refill rejected");
    expect(within(rejected).getByRole("heading", { level: 2 }).textContent).toBe("Refill rejected");
    expect(within(rejected).getByTestId("refill-outcome").textContent).toContain("Nothing was credited");
    expect(payable(rejected)).toEqual({ address: false, qr: false, copy: false, hashField: false });
  });

  it("opens the credited sheet, not the payment address, from a credited refill's link (the inbox's tap)", async () => {
    const CREDITED: Refill = { ...DONE, processedAt: "2026-01-03T10:00:00.000Z" };
    stubRoutes({
      paymentSystems: { body: SYSTEMS },
      refills: { body: { items: [CREDITED], total: 1, page: 1, limit: 10 } },
      refill: { body: CREDITED },
    });
    await renderApp({ path: "/refill?refill=r0", user: DEMO_USER });
    const dialog = await screen.findByTestId("wallet-dialog");
    expect(dialog.getAttribute("data-state")).toBe("replenished");
    expect(within(dialog).queryByTestId("refill-qr")).toBeNull();
    expect(dialog.textContent).not.toContain(WAITING.address);
  });
});
