/** Phone verification: the code, the resend wait (docs/decisions.md#d5-codes), the server's answers, the guards. */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { startCodeCooldown } from "@/lib/code-cooldown";
import { userAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { DEMO_USER, renderApp, stubRoutes } from "./test-utils";

const screenName = () => document.querySelector("[data-screen]")?.getAttribute("data-screen");
const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name='${name}']`);
const resend = () => screen.getByTestId("resend") as HTMLButtonElement;
const formError = () => screen.queryByTestId("form-error");

const WAITING = { ...DEMO_USER, id: "u-wait", phone: "+77015550000", phoneConfirmed: false };

function api(routes: Parameters<typeof stubRoutes>[0] = {}) {
  return stubRoutes(routes);
}

function typeCode(value: string) {
  fireEvent.change(input("code") as HTMLInputElement, { target: { value } });
}

describe("phone verification", () => {
  it("asks for the 6-digit code with a numeric keyboard and the code offered by the keyboard", async () => {
    api();
    await renderApp({ path: "/phone-verification", user: WAITING });
    await waitFor(() => expect(input("code")).toBeTruthy());
    const code = input("code") as HTMLInputElement;
    expect(code.inputMode).toBe("numeric");
    expect(code.autocomplete).toBe("one-time-code");
    expect(screen.getByText(/\+77015550000/)).toBeTruthy();
    typeCode("12 34-5x6");
    expect(code.value).toBe("123456");
  });

  it("keeps resend disabled with a visible countdown until the wait is over, then sends a new code", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    startCodeCooldown("phone", WAITING.id, 60);
    const fetchMock = api({
      phoneResend: {
        body: { message: "Request successfully sent", resendAfterSeconds: 60, expiresInSeconds: 600 },
      },
    });
    await renderApp({ path: "/phone-verification", user: WAITING });
    await waitFor(() => expect(input("code")).toBeTruthy());
    expect(resend().disabled).toBe(true);
    expect(resend().textContent).toMatch(/^Resend in (1:00|0:59)$/);

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(resend().textContent).toMatch(/^Resend in 0:(30|29)$/);
    expect(resend().disabled).toBe(true);

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(resend().textContent).toBe("Resend code");
    expect(resend().disabled).toBe(false);

    fireEvent.click(resend());
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("Request successfully sent"));
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith("/auth/phone/resend"))).toBe(true);
    expect(resend().disabled).toBe(true);
    expect(resend().textContent).toMatch(/^Resend in (1:00|0:59)$/);
  });

  it("says where the code really went: the channels of the setting, then the channel a resend reports", async () => {
    api({
      phoneResend: {
        body: {
          message: "Request successfully sent",
          resendAfterSeconds: 60,
          expiresInSeconds: 600,
          channel: "email",
          destination: "d***@example.com",
        },
      },
    });
    await renderApp({ path: "/phone-verification", user: WAITING });
    const where = await screen.findByTestId("code-destination");
    // Not "sent to the phone": the code goes by the user's code channel.
    expect(where.textContent).toBe(
      "We have sent the code to the channel chosen in your security settings: Telegram, e-mail or SMS.",
    );
    fireEvent.click(resend());
    await waitFor(() =>
      expect(screen.getByTestId("code-destination").textContent).toBe(
        "The code was sent by e-mail to d***@example.com.",
      ),
    );
  });

  it("offers a resend at once when no code was sent from this tab", async () => {
    api();
    await renderApp({ path: "/phone-verification", user: WAITING });
    await waitFor(() => expect(input("code")).toBeTruthy());
    expect(resend().disabled).toBe(false);
  });

  it("a wrong code says so, with the attempts left, and keeps the code", async () => {
    api({
      phoneConfirm: {
        status: 400,
        body: { code: "CODE_MISMATCH", message: "The code doesn't match. Try again", params: { attemptsLeft: "3" } },
      },
    });
    await renderApp({ path: "/phone-verification", user: WAITING });
    await waitFor(() => expect(input("code")).toBeTruthy());
    typeCode("111111");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(formError()?.textContent).toContain("The code doesn't match. Try again"));
    expect(formError()?.textContent).toContain("Attempts left: 3");
    expect(input("code")?.value).toBe("111111");
  });

  it("a code sent twice at once (a double tap, Enter then a tap) goes to the server once", async () => {
    let calls = 0;
    api({
      phoneConfirm: () => {
        calls += 1;
        return {
          status: 400,
          body: { code: "CODE_MISMATCH", message: "The code doesn't match. Try again", params: { attemptsLeft: "3" } },
        };
      },
    });
    await renderApp({ path: "/phone-verification", user: WAITING });
    await waitFor(() => expect(input("code")).toBeTruthy());
    typeCode("111111");
    fireEvent.click(screen.getByTestId("submit"));
    fireEvent.click(screen.getByTestId("submit"));
    fireEvent.submit(input("code")?.form as HTMLFormElement);
    await waitFor(() => expect(formError()?.textContent).toContain("Attempts left: 3"));
    expect(calls).toBe(1);
  });

  const refusals: [code: string, status: number, message: string][] = [
    ["CODE_EXPIRED", 410, "The verification code is out of date"],
    ["CODE_INVALID", 400, "The code is not valid"],
    ["RATE_LIMITED", 429, "Repeat the request in a few minutes"],
  ];
  for (const [code, status, message] of refusals) {
    it(`${code} says '${message}'`, async () => {
      api({ phoneConfirm: { status, body: { code, message } } });
      await renderApp({ path: "/phone-verification", user: WAITING });
      await waitFor(() => expect(input("code")).toBeTruthy());
      typeCode("222222");
      fireEvent.click(screen.getByTestId("submit"));
      await waitFor(() => expect(formError()?.textContent).toContain(message));
    });
  }

  it("a failed resend says 'Code sending error'", async () => {
    api({ phoneResend: { status: 502, body: { code: "CODE_SEND_FAILED", message: "Code sending error" } } });
    await renderApp({ path: "/phone-verification", user: WAITING });
    await waitFor(() => expect(input("code")).toBeTruthy());
    fireEvent.click(resend());
    await waitFor(() => expect(formError()?.textContent).toBe("Code sending error"));
  });

  it("checks the code's form before sending it", async () => {
    const fetchMock = api();
    await renderApp({ path: "/phone-verification", user: WAITING });
    await waitFor(() => expect(input("code")).toBeTruthy());
    typeCode("123");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() =>
      expect(document.querySelector("[data-field-error='code']")?.textContent).toBe("Enter the 6-digit code"),
    );
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith("/auth/phone/confirm"))).toBe(false);
  });

  it("the right code confirms the phone, updates the user and goes on to `next`", async () => {
    api({ phoneConfirm: { body: { user: { ...WAITING, phoneConfirmed: true } } } });
    const { router } = await renderApp({ path: "/phone-verification?next=%2Fdeposits", user: WAITING });
    await waitFor(() => expect(input("code")).toBeTruthy());
    typeCode("123456");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(screenName()).toBe("deposits"));
    expect(router.state.location.pathname).toBe("/deposits");
    expect(appStore.get(userAtom)?.phoneConfirmed).toBe(true);
  });
});

describe("the cabinet guard", () => {
  it("sends a signed-in user whose phone is not confirmed to phone verification, keeping where they went", async () => {
    api();
    const { router } = await renderApp({ path: "/withdrawal", user: WAITING });
    await waitFor(() => expect(screenName()).toBe("phone-verification"));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      "/phone-verification?next=%2Fwithdrawal",
    );
  });

  it("lets in an account without a phone (made by Telegram sign-in)", async () => {
    api();
    await renderApp({ path: "/", user: { ...DEMO_USER, phone: null, phoneConfirmed: false, telegramLinked: true } });
    await waitFor(() => expect(screenName()).toBe("cabinet"));
  });

  it("sends a confirmed user away from phone verification, and a signed-out one to login", async () => {
    api();
    const confirmed = await renderApp({ path: "/phone-verification", user: DEMO_USER });
    await waitFor(() => expect(screenName()).toBe("cabinet"));
    confirmed.unmount();
    const { router } = await renderApp({ path: "/phone-verification" });
    await waitFor(() => expect(screenName()).toBe("login"));
    expect(router.state.location.pathname).toBe("/login");
  });
});
