/** Crypto cases: on Deposits they narrow the plans and open the deposit through the case; on Operations, their operations. */
import type { CryptoCase, Deposit, Operation, Plan } from "@contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { setLanguage } from "@/config/i18n";
import { aDeposit } from "./fixtures";
import { DEMO_USER, renderApp, stubRoutes } from "./test-utils";

const plan = (id: string, en: string, ru: string, dailyYieldPercent: string): Plan => ({
  id,
  name: { en, ru, de: en, kk: ru },
  currency: "USDT",
  dailyYieldPercent,
  durationDays: 30,
  minAmount: "10",
  maxAmount: "5000",
});
const START = plan("start", "Start", "Старт", "1");
const STANDARD = plan("standard", "Standard", "Стандарт", "1.5");
const PREMIUM = plan("premium", "Premium", "Премиум", "2");

const text = (en: string, ru: string) => ({ en, ru, de: en, kk: ru });
const CASES: CryptoCase[] = [
  {
    id: "steady",
    name: text("Steady start", "Спокойный старт"),
    description: text("Short terms", "Короткий срок"),
    riskLevel: "low",
    planIds: ["start"],
  },
  {
    id: "growth",
    name: text("Growth", "Рост"),
    description: text("Held longer", "Дольше"),
    riskLevel: "high",
    planIds: ["standard", "premium"],
  },
  // Names only a plan that is no longer offered: nothing to open through it.
  { id: "gone", name: text("Gone", "Нет"), description: text("-", "-"), riskLevel: "medium", planIds: ["old"] },
];

const DEPOSIT: Deposit = aDeposit({
  planId: "premium",
  planName: PREMIUM.name,
  caseId: "growth",
  amount: "100",
  dailyYieldPercent: "2",
  dailyIncome: "2",
  totalAtEnd: "160",
  accruedHeld: "0",
  daysAccrued: 0,
});

function depositsApi(posts: unknown[]) {
  return stubRoutes({
    plansAvailable: { body: [START, STANDARD, PREMIUM] },
    cryptoCases: { body: CASES },
    balance: {
      body: { type: "balance", currentCurrency: "USDT", currencies: { USDT: "1000", BTC: "0", ETH: "0", TON: "0" } },
    },
    deposits: { body: { items: [DEPOSIT], total: 1, page: 1, limit: 10 } },
    createDeposit: (request) => {
      void request.json().then((body) => posts.push(body));
      return { body: DEPOSIT };
    },
  });
}

/** Opens the case choice (one row, "Every plan" by default) to show the cases. */
async function showCases() {
  const choice = await screen.findByTestId("case-choice");
  if (choice.getAttribute("aria-expanded") !== "true") fireEvent.click(choice);
  return screen.findAllByTestId("crypto-case");
}

const planOptions = () =>
  [...(document.querySelector("select[name='planId']") as HTMLSelectElement).options].map((o) => o.value);

describe("crypto cases on Deposits", () => {
  it("lists the cases that have plans on offer, with risk level and plans", async () => {
    depositsApi([]);
    await renderApp({ path: "/deposits", user: DEMO_USER });
    fireEvent.click(await screen.findByTestId("open-deposit"));
    const cards = await showCases();
    expect(cards.map((card) => card.getAttribute("data-case-id"))).toEqual(["steady", "growth"]);
    const growth = cards[1] as HTMLElement;
    expect(growth.textContent).toContain("Growth");
    expect(growth.textContent).toContain("Held longer");
    expect(within(growth).getByTestId("case-risk").textContent).toBe("High risk");
    expect(within(growth).getByTestId("case-risk").className).toContain("risk-high");
    expect([...growth.querySelectorAll("[data-plan-id]")].map((el) => el.getAttribute("data-plan-id"))).toEqual([
      "standard",
      "premium",
    ]);
  });

  it("opens on the plan and the amount; the case comes after them, one row with 'Every plan' chosen", async () => {
    depositsApi([]);
    await renderApp({ path: "/deposits", user: DEMO_USER });
    fireEvent.click(await screen.findByTestId("open-deposit"));
    const choice = await screen.findByTestId("case-choice");
    const plan = document.querySelector("select[name='planId']") as HTMLElement;
    const amount = document.querySelector("input[name='amount']") as HTMLElement;
    const follows = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(follows(plan, amount)).toBe(true);
    expect(follows(amount, choice)).toBe(true);
    expect(choice.textContent).toContain("Every plan");
    expect(choice.getAttribute("aria-expanded")).toBe("false");
    // The cases' long descriptions are not on the sheet until asked for.
    expect(screen.queryAllByTestId("crypto-case")).toEqual([]);
  });

  it("choosing a case narrows the plan choice to its plans and sends caseId; 'Every plan' undoes it", async () => {
    const posts: unknown[] = [];
    depositsApi(posts);
    await renderApp({ path: "/deposits", user: DEMO_USER });
    fireEvent.click(await screen.findByTestId("open-deposit"));
    await showCases();
    expect(planOptions()).toEqual(["start", "standard", "premium"]);
    expect(screen.getByTestId("case-choice").getAttribute("data-case-id")).toBeNull();

    const growth = screen.getAllByTestId("crypto-case")[1] as HTMLElement;
    fireEvent.click(growth.querySelector("input[type='radio']") as HTMLInputElement);
    await waitFor(() => expect(planOptions()).toEqual(["standard", "premium"]));
    expect(screen.getByTestId("case-choice").getAttribute("data-case-id")).toBe("growth");
    expect(screen.getByTestId("case-choice").textContent).toContain("Growth");

    fireEvent.change(document.querySelector("select[name='planId']") as HTMLSelectElement, {
      target: { value: "premium" },
    });
    fireEvent.change(document.querySelector("input[name='amount']") as HTMLInputElement, {
      target: { value: "100" },
    });
    fireEvent.click(screen.getByTestId("submit"));
    fireEvent.click(await screen.findByTestId("deposit-confirm"));
    await screen.findByTestId("form-success");
    await waitFor(() =>
      expect(posts).toEqual([
        { planId: "premium", currency: "USDT", amount: "100", autoInvest: false, caseId: "growth" },
      ]),
    );
  });

  it("'Every plan' undoes the case's narrowing", async () => {
    depositsApi([]);
    await renderApp({ path: "/deposits", user: DEMO_USER });
    fireEvent.click(await screen.findByTestId("open-deposit"));
    const growth = (await showCases())[1] as HTMLElement;
    fireEvent.click(growth.querySelector("input[type='radio']") as HTMLInputElement);
    await waitFor(() => expect(planOptions()).toEqual(["standard", "premium"]));
    await showCases();
    fireEvent.click(screen.getByRole("radio", { name: "Every plan" }));
    await waitFor(() => expect(planOptions()).toEqual(["start", "standard", "premium"]));
    expect(screen.getByTestId("case-choice").getAttribute("data-case-id")).toBeNull();
  });

  it("a deposit opened through a case names it", async () => {
    depositsApi([]);
    await renderApp({ path: "/deposits", user: DEMO_USER });
    const row = await screen.findByTestId("deposit-row");
    await waitFor(() => expect(row.textContent).toContain("Case: Growth"));
  });

  it("speaks the interface language", async () => {
    depositsApi([]);
    await renderApp({ path: "/deposits", user: DEMO_USER });
    fireEvent.click(await screen.findByTestId("open-deposit"));
    await showCases();
    await act(() => setLanguage("ru"));
    await waitFor(() => expect(screen.getByText("Криптокейсы")).toBeTruthy());
    const growth = screen.getAllByTestId("crypto-case")[1] as HTMLElement;
    expect(growth.textContent).toContain("Рост");
    expect(within(growth).getByTestId("case-risk").textContent).toBe("Высокий риск");
  });
});

describe("case operations", () => {
  const OPS: Operation[] = [
    {
      id: "o2",
      type: "accrual",
      currency: "USDT",
      amount: "2",
      createdAt: "2026-01-02T10:00:00.000Z",
      details: { depositId: "d1", caseId: "growth", days: 1 },
    },
    {
      id: "o1",
      type: "plan",
      currency: "USDT",
      amount: "-50",
      createdAt: "2026-01-01T10:00:00.000Z",
      details: { depositId: "d0", caseId: "steady" },
    },
  ];

  function operationsApi(queries: URLSearchParams[]) {
    return stubRoutes({
      cryptoCases: { body: CASES },
      operations: { body: { items: [], total: 0, page: 1, limit: 20 } },
      caseOperations: (request) => {
        const query = new URL(request.url).searchParams;
        queries.push(query);
        const caseId = query.get("caseId");
        const items = OPS.filter((o) => !caseId || o.details?.caseId === caseId);
        return { body: { items, total: items.length, page: 1, limit: 20 } };
      },
    });
  }

  it("the Case operations view lists them with their case's name, and filters by case", async () => {
    const queries: URLSearchParams[] = [];
    operationsApi(queries);
    const { router } = await renderApp({ path: "/operations", user: DEMO_USER });
    fireEvent.click(await screen.findByTestId("operations-view-cases"));
    const list = await screen.findByTestId("case-operations");
    expect(router.state.location.search).toBe("?view=cases");
    const rows = within(list).getAllByTestId("operation-row");
    expect(rows.map((row) => row.getAttribute("data-operation-id"))).toEqual(["o2", "o1"]);
    await waitFor(() =>
      expect(
        within(list)
          .getAllByTestId("operation-case")
          .map((el) => el.textContent),
      ).toEqual(["Growth", "Steady start"]),
    );

    fireEvent.change(document.querySelector("select[name='caseId']") as HTMLSelectElement, {
      target: { value: "steady" },
    });
    await waitFor(() =>
      expect(
        within(screen.getByTestId("case-operations"))
          .getAllByTestId("operation-row")
          .map((row) => row.getAttribute("data-operation-id")),
      ).toEqual(["o1"]),
    );
    expect(queries.at(-1)?.get("caseId")).toBe("steady");
  });

  it("says so when there are none", async () => {
    stubRoutes({
      cryptoCases: { body: CASES },
      caseOperations: { body: { items: [], total: 0, page: 1, limit: 20 } },
    });
    await renderApp({ path: "/operations?view=cases", user: DEMO_USER });
    await screen.findByText("No operations on crypto-case deposits yet");
    expect(screen.queryByTestId("case-operations")).toBeNull();
  });
});
