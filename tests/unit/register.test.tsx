/**
 * Registration: the field rules (docs/cabinet-rules.md#field-rules) from the contract, the server's answers at
 * their fields, the Terms.
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_REGISTRATION, registerDraftAtom } from "@/features/auth/model/register-draft";
import { alertsAtom } from "@/lib/alerts";
import { codeCooldownUntil } from "@/lib/code-cooldown";
import { initialFormState } from "@/lib/form/use-form";
import { appStore } from "@/lib/store";
import { setTelegramBridge } from "@/tma/bridge";
import { oneSetting } from "./route-stubs";
import { DEMO_USER, fakeBridge, renderApp, stubRoutes } from "./test-utils";

const screenName = () => document.querySelector("[data-screen]")?.getAttribute("data-screen");
const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name='${name}']`);
const fieldError = (name: string) => document.querySelector(`[data-field-error='${name}']`)?.textContent;

function type(name: string, value: string, leave = true) {
  const field = input(name);
  if (!field) throw new Error(`no input ${name}`);
  fireEvent.change(field, { target: { value } });
  if (leave) fireEvent.blur(field);
}

const GOOD = {
  login: "newbie7",
  fullName: "Aigerim Sadykova",
  email: "aigerim@example.com",
  phone: "+77011234567",
  password: "Steppe2026wind",
  passwordRepeat: "Steppe2026wind",
};

function fillGood() {
  for (const [name, value] of Object.entries(GOOD)) type(name, value);
  fireEvent.click(input("acceptTerms") as HTMLInputElement);
}

function api(routes: Parameters<typeof stubRoutes>[0] = {}) {
  return stubRoutes({
    setting: oneSetting("defaultInviter", "kassa"),
    ...routes,
  });
}

/** The path a stubbed call went to, under the API base. */
const pathOf = (request: Request) => new URL(request.url).pathname.replace(/^\/api/, "");

async function openRegistration(path = "/register/alice") {
  const view = await renderApp({ path });
  await waitFor(() => expect(input("login")).toBeTruthy());
  return view;
}

beforeEach(() => appStore.set(registerDraftAtom, initialFormState(EMPTY_REGISTRATION)));
afterEach(() => setTelegramBridge(null));

describe("registration rules, shown when a filled field is left (an empty one after the submit)", () => {
  const cases: [field: string, value: string, message: string][] = [
    ["login", "", "Please fill out this field!"],
    ["login", "abc", "The login must be at least 4 characters long"],
    ["login", "ab cd", "Use Latin letters and digits only, without spaces"],
    ["login", "логин", "Use Latin letters and digits only, without spaces"],
    ["fullName", "  ", "Please fill out this field!"],
    ["email", "aigerim@", "Enter a valid e-mail address"],
    ["phone", "87011234567", "Enter the phone number as a plus sign followed by digits"],
    ["phone", "+7 701 123", "Enter the phone number as a plus sign followed by digits"],
    ["password", "пароль123", "The password may contain Latin letters and digits only, without spaces"],
    ["password", "qwerty123", "The password is too simple"],
    ["password", "abcdefgh", "The password is too simple"],
  ];
  for (const [field, value, message] of cases) {
    it(`${field} = ${JSON.stringify(value)} → '${message}'`, async () => {
      api();
      await openRegistration();
      type(field, value);
      if (value === "") {
        // Leaving an empty field says nothing: its rule waits for the first submit.
        await act(() => new Promise((r) => setTimeout(r, 50)));
        expect(fieldError(field)).toBeUndefined();
        fireEvent.click(screen.getByTestId("submit"));
      }
      await waitFor(() => expect(fieldError(field)).toBe(message));
    });
  }

  it("the repeat must match, and the password must not contain the login", async () => {
    api();
    await openRegistration();
    type("login", "steppe");
    type("password", "Steppe2026");
    await waitFor(() => expect(fieldError("password")).toBe("The password is too simple"));
    type("password", "Kazakh2026wind");
    type("passwordRepeat", "Kazakh2026win");
    await waitFor(() => expect(fieldError("passwordRepeat")).toBe("The passwords do not match"));
    expect(fieldError("password")).toBeUndefined();
  });

  it("a submit shows every field's message, the Terms' too, and sends nothing", async () => {
    const fetchMock = api();
    await openRegistration();
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(fieldError("acceptTerms")).toBe("Accept the public offer and the user agreement"));
    for (const field of ["login", "fullName", "email", "phone", "password", "passwordRepeat"]) {
      expect(fieldError(field), field).toBe("Please fill out this field!");
    }
    expect(document.activeElement?.getAttribute("name")).toBe("login");
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes("/auth/register"))).toBe(false);
  });
});

describe("registration and the server", () => {
  it("a tap on a language button inside the complete form switches the language and submits nothing", async () => {
    const fetchMock = api({ register: { status: 500, body: { code: "INTERNAL", message: "not to be called" } } });
    await openRegistration();
    fillGood();
    const buttons = [...document.querySelectorAll<HTMLButtonElement>("form .language-option")];
    expect(buttons.map((b) => b.lang)).toEqual(["en", "ru", "de", "kk"]);
    for (const button of buttons) expect(button.type).toBe("button");
    fireEvent.click(buttons[2] as HTMLButtonElement);
    await waitFor(() => expect(document.documentElement.lang).toBe("de"));
    fireEvent.click(buttons[0] as HTMLButtonElement);
    await waitFor(() => expect(document.documentElement.lang).toBe("en"));
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes("/auth/register"))).toBe(false);
    expect(screenName()).toBe("register");
  });

  it("sends the form to /auth/register/<inviter> and goes to phone verification with the resend wait running", async () => {
    const user = { ...DEMO_USER, id: "u-new", login: "newbie7", phoneConfirmed: false };
    let sent: unknown;
    let path: string | undefined;
    api({
      register: (request) => {
        path = pathOf(request);
        void request.json().then((body) => {
          sent = body;
        });
        return { body: { refreshToken: "t-new", user, phoneConfirmationRequired: true } };
      },
    });
    await openRegistration();
    fillGood();
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(screenName()).toBe("phone-verification"));
    expect(path).toBe("/auth/register/alice");
    expect(sent).toEqual({ ...GOOD, acceptTerms: true, language: "en" });
    expect(codeCooldownUntil("phone", "u-new")).toBeGreaterThan(Date.now() + 55_000);
    expect(screen.getByTestId("resend").textContent).toMatch(/Resend in (1:00|0:5\d)/);
    expect((screen.getByTestId("resend") as HTMLButtonElement).disabled).toBe(true);
  });

  const taken: [code: string, field: string, message: string, another: string][] = [
    ["PHONE_TAKEN", "phone", "This Phone Number is already registered", "+77011234568"],
    ["EMAIL_TAKEN", "email", "This Email has already been registered", "aigerim2@example.com"],
    ["LOGIN_TAKEN", "login", "This login has already been registered", "newbie8"],
  ];
  for (const [code, field, message, another] of taken) {
    it(`409 ${code} shows '${message}' at ${field} and as an alert, keeping every value`, async () => {
      api({ register: { status: 409, body: { code, message } } });
      await openRegistration();
      fillGood();
      fireEvent.click(screen.getByTestId("submit"));
      await waitFor(() => expect(fieldError(field)).toBe(message));
      await waitFor(() => expect(screen.getByRole("alert").textContent).toContain(message));
      for (const [name, value] of Object.entries(GOOD)) expect(input(name)?.value, name).toBe(value);
      expect(input("acceptTerms")?.checked).toBe(true);
      // Changing the field clears the server's word about it.
      type(field, another, false);
      await waitFor(() => expect(fieldError(field)).toBeUndefined());
    });
  }

  it("shows the server's field codes next to their fields", async () => {
    api({
      register: {
        status: 400,
        body: {
          code: "VALIDATION_FAILED",
          message: "Check the marked fields",
          fields: { email: "emailInvalid", phone: "phoneFormat" },
        },
      },
    });
    await openRegistration();
    fillGood();
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(fieldError("email")).toBe("Enter a valid e-mail address"));
    expect(fieldError("phone")).toBe("Enter the phone number as a plus sign followed by digits");
    expect(screen.getByTestId("form-error").textContent).toBe("Check the marked fields");
  });

  it("says 'Registration error' when the inviter does not exist", async () => {
    const paths: string[] = [];
    api({
      register: (request) => {
        paths.push(pathOf(request));
        return {
          status: 400,
          body: { code: "REGISTRATION_FAILED", message: "Registration error", fields: { inviter: "required" } },
        };
      },
    });
    await openRegistration("/register/ghost");
    fillGood();
    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).toBe("Registration error"));
    expect(fieldError("inviter")).toBe("This inviter could not be found. Check the invitation link.");
    expect(paths).toEqual(["/auth/register/ghost"]);
    expect(appStore.get(alertsAtom)).toEqual([]);
  });
});

describe("the Terms", () => {
  it("open from the form and back without losing anything typed", async () => {
    api();
    const { router } = await openRegistration();
    fillGood();
    fireEvent.click(screen.getByTestId("terms-offer"));
    await waitFor(() => expect(screenName()).toBe("terms"));
    expect(router.state.location.pathname).toBe("/terms/offer");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Public offer");
    expect(screen.getByText("4. Risks")).toBeTruthy();
    fireEvent.click(screen.getByTestId("terms-back"));
    await waitFor(() => expect(screenName()).toBe("register"));
    for (const [name, value] of Object.entries(GOOD)) expect(input(name)?.value, name).toBe(value);
    expect(input("acceptTerms")?.checked).toBe(true);

    fireEvent.click(screen.getByTestId("terms-agreement"));
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("User agreement"));
  });

  it("read in the interface language", async () => {
    api();
    await renderApp({ path: "/terms/agreement" });
    await waitFor(() => expect(screenName()).toBe("terms"));
    expect(screen.getByText("2. Personal data")).toBeTruthy();
  });
});

describe("who invites", () => {
  it("the Telegram start parameter ref_<login> when the path names no one", async () => {
    setTelegramBridge(fakeBridge("android", { startParam: "ref_bolat" }).bridge);
    api();
    await openRegistration("/register");
    await waitFor(() => expect(screen.getByTestId("inviter").textContent).toContain("bolat"));
  });

  it("the default inviter otherwise", async () => {
    api();
    await openRegistration("/register");
    await waitFor(() => expect(screen.getByTestId("inviter").textContent).toContain("kassa"));
  });
});
