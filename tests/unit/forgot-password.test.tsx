/**
 * Password recovery (docs/cabinet-rules.md#statuses-and-flows): request → code → new password → back to sign-in
 * with the login filled.
 */
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { alertsAtom } from "@/lib/alerts";
import { appStore } from "@/lib/store";
import { type RouteReply, renderApp, stubRoutes } from "./test-utils";

const screenName = () => document.querySelector("[data-screen]")?.getAttribute("data-screen");
const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name='${name}']`);
const step = () => document.querySelector("form[data-step]")?.getAttribute("data-step");
const fieldError = (name: string) => document.querySelector(`[data-field-error='${name}']`)?.textContent;
const formError = () => screen.queryByTestId("form-error")?.textContent ?? null;

function type(name: string, value: string) {
  const field = input(name);
  if (!field) throw new Error(`no input ${name}`);
  fireEvent.change(field, { target: { value } });
  fireEvent.blur(field);
}

const CODE_SENT: RouteReply<"resetPassword"> = {
  body: { message: "Request successfully sent", resendAfterSeconds: 60, expiresInSeconds: 600 },
};

function api(routes: Parameters<typeof stubRoutes>[0] = {}) {
  return stubRoutes({
    telegramAuthAvailable: { body: { available: false } },
    resetPassword: CODE_SENT,
    ...routes,
  });
}

async function toCodeStep(login = "demo") {
  const view = await renderApp({ path: "/forgot-password" });
  await waitFor(() => expect(step()).toBe("request"));
  type("login", login);
  fireEvent.click(screen.getByTestId("submit"));
  await waitFor(() => expect(step()).toBe("code"));
  return view;
}

describe("forgot password", () => {
  it("step 1 needs the login or e-mail", async () => {
    const fetchMock = api();
    await renderApp({ path: "/forgot-password" });
    await waitFor(() => expect(step()).toBe("request"));
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(fieldError("login")).toBe("Please fill out this field!"));
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith("/auth/reset-password"))).toBe(false);
  });

  it("step 1 sends a code and says so; step 2 waits before a new one", async () => {
    let sent: unknown;
    api({
      resetPassword: (request) => {
        void request.json().then((body) => {
          sent = body;
        });
        return CODE_SENT;
      },
    });
    await toCodeStep("demo@example.com");
    expect(sent).toEqual({ login: "demo@example.com" });
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("Request successfully sent"));
    expect(screen.getByText(/sent for demo@example.com/)).toBeTruthy();
    const resend = screen.getByTestId("resend") as HTMLButtonElement;
    expect(resend.disabled).toBe(true);
    expect(resend.textContent).toMatch(/Resend in (1:00|0:59)/);
  });

  it("step 2: a wrong code shows the server's text, a right one leads to the new password", async () => {
    let valid = false;
    api({
      resetPasswordValidate: () =>
        valid
          ? { body: { resetToken: "reset-1" } }
          : {
              status: 400,
              body: {
                code: "CODE_MISMATCH",
                message: "The code doesn't match. Try again",
                params: { attemptsLeft: "4" },
              },
            },
    });
    await toCodeStep();
    type("code", "000000");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(formError()).toContain("The code doesn't match. Try again"));
    expect(formError()).toContain("Attempts left: 4");
    valid = true;
    type("code", "123456");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(step()).toBe("password"));
  });

  it("a refusal with a code the app does not know shows the server's own message", async () => {
    api({ resetPassword: { status: 400, body: { code: "SOMETHING_NEW", message: "Account is locked" } } });
    await renderApp({ path: "/forgot-password" });
    await waitFor(() => expect(step()).toBe("request"));
    type("login", "demo");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(formError()).toBe("Account is locked"));
    expect(input("login")?.value).toBe("demo");
  });

  it("step 3 checks the rules of registration, saves the password and returns to sign-in with the login filled", async () => {
    let saved: unknown;
    api({
      resetPasswordValidate: { body: { resetToken: "reset-1" } },
      setPassword: (request) => {
        void request.json().then((body) => {
          saved = body;
        });
        return { body: { ok: true } };
      },
    });
    const { router } = await toCodeStep("demo");
    type("code", "123456");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(step()).toBe("password"));

    type("password", "demo2026");
    await waitFor(() => expect(fieldError("password")).toBe("The password is too simple"));
    type("password", "Ural2026river");
    type("passwordRepeat", "Ural2026rive");
    await waitFor(() => expect(fieldError("passwordRepeat")).toBe("The passwords do not match"));
    type("passwordRepeat", "Ural2026river");
    fireEvent.click(screen.getByTestId("submit"));

    await waitFor(() => expect(screenName()).toBe("login"));
    expect(router.state.location.pathname).toBe("/login");
    expect(input("login")?.value).toBe("demo");
    expect(saved).toEqual({ resetToken: "reset-1", password: "Ural2026river", passwordRepeat: "Ural2026river" });
    // It replaces the older 'Request successfully sent', which is no news any more.
    expect(appStore.get(alertsAtom).map((alert) => alert.text)).toEqual([
      { ns: "recovery", key: "forgotPassword.done" },
    ]);
    await waitFor(() =>
      expect(screen.getByRole("status").textContent).toContain(
        "Your password has been changed. Sign in with your new password.",
      ),
    );
  });

  it("an expired reset token says so and offers a new code", async () => {
    api({
      resetPasswordValidate: { body: { resetToken: "reset-1" } },
      setPassword: {
        status: 410,
        body: { code: "CODE_EXPIRED", message: "The verification code is out of date" },
      },
    });
    await toCodeStep();
    type("code", "123456");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(step()).toBe("password"));
    type("password", "Ural2026river");
    type("passwordRepeat", "Ural2026river");
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(formError()).toContain("The verification code is out of date"));
    fireEvent.click(screen.getByText("Request a new code"));
    await waitFor(() => expect(step()).toBe("request"));
    expect(input("login")?.value).toBe("demo");
  });
});
