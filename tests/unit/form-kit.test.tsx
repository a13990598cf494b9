/**
 * The form kit as a reader meets it, on the login and registration screens (only the network is fake): the
 * rules speak after the first submit, not when an empty field is left; a field's label is a `<label for>`
 * that names the input, not a heading; the language switcher is one Tab stop whose arrow keys move the choice.
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderApp, stubRoutes } from "./test-utils";

const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name='${name}']`);
const fieldError = (name: string) => document.querySelector(`[data-field-error='${name}']`)?.textContent;

function type(name: string, value: string) {
  const field = input(name);
  if (!field) throw new Error(`no input ${name}`);
  fireEvent.change(field, { target: { value } });
}

async function openLogin() {
  stubRoutes({ telegramAuthAvailable: { body: { available: false } } });
  await renderApp({ path: "/login" });
  await waitFor(() => expect(input("login")).toBeTruthy());
}

describe("when the rules speak", () => {
  it("leaving an empty field says nothing; the first submit shows every rule, which then follows the typing", async () => {
    await openLogin();
    const login = input("login") as HTMLInputElement;
    fireEvent.focus(login);
    fireEvent.blur(login);
    fireEvent.focus(input("password") as HTMLInputElement);
    fireEvent.blur(input("password") as HTMLInputElement);
    // Give a late error every chance to show.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(fieldError("login")).toBeUndefined();
    expect(fieldError("password")).toBeUndefined();
    expect(login.getAttribute("aria-invalid")).toBeNull();

    fireEvent.click(screen.getByTestId("submit"));
    await waitFor(() => expect(fieldError("login")).toBe("Please fill out this field!"));
    expect(fieldError("password")).toBe("Please fill out this field!");
    expect(login.getAttribute("aria-invalid")).toBe("true");
    // After the submit, the rule follows what is typed, without leaving the field; what was typed stays.
    type("login", "demo");
    await waitFor(() => expect(fieldError("login")).toBeUndefined());
    type("login", "");
    await waitFor(() => expect(fieldError("login")).toBe("Please fill out this field!"));
    expect(fieldError("password")).toBe("Please fill out this field!");
  });

  it("a field filled and left still says what is wrong with it before any submit", async () => {
    stubRoutes({});
    await renderApp({ path: "/register/demo" });
    await waitFor(() => expect(input("email")).toBeTruthy());
    const email = input("email") as HTMLInputElement;
    fireEvent.focus(email);
    type("email", "not-an-email");
    fireEvent.blur(email);
    await waitFor(() => expect(fieldError("email")).toBeTruthy());
    // The empty fields around it are left alone.
    expect(fieldError("login")).toBeUndefined();
    expect(email.value).toBe("not-an-email");
  });
});

describe("labels", () => {
  it("each field's label is a <label for> that names its input, and no field label is a heading", async () => {
    await openLogin();
    for (const name of ["login", "password"]) {
      const field = input(name) as HTMLInputElement;
      const label = document.querySelector<HTMLLabelElement>(`label[for='${field.id}']`);
      expect(label, `${name} has a label`).toBeTruthy();
      expect(field.labels ? [...field.labels] : []).toContain(label);
      // The accessible name is the label's text alone (not the password switch's name beside it).
      expect(screen.getByLabelText(label?.textContent ?? "")).toBe(field);
    }
    expect(screen.getByRole("textbox", { name: "Login or e-mail" })).toBe(input("login"));
    const headings = [...document.querySelectorAll("form h1, form h2, form h3, form h4, form h5, form h6")].map(
      (h) => h.textContent,
    );
    expect(headings).not.toContain("Login or e-mail");
    expect(headings).not.toContain("Password");
  });
});

describe("the language switcher", () => {
  it("is one Tab stop, the chosen language; the arrow keys, Home and End move the choice and the focus", async () => {
    await openLogin();
    const group = screen.getByRole("radiogroup", { name: "Language" });
    const radios = () => [...group.querySelectorAll<HTMLButtonElement>("[role='radio']")];
    const tabStops = () => radios().filter((r) => r.tabIndex === 0);
    expect(radios().map((r) => r.lang)).toEqual(["en", "ru", "de", "kk"]);
    expect(tabStops().map((r) => r.lang)).toEqual(["en"]);
    expect(radios().find((r) => r.getAttribute("aria-checked") === "true")?.lang).toBe("en");

    const english = radios()[0] as HTMLButtonElement;
    english.focus();
    fireEvent.keyDown(english, { key: "ArrowRight" });
    await waitFor(() => expect(document.documentElement.lang).toBe("ru"));
    await waitFor(() => expect(tabStops().map((r) => r.lang)).toEqual(["ru"]));
    expect(document.activeElement).toBe(radios()[1]);
    expect(radios()[1]?.getAttribute("aria-checked")).toBe("true");

    fireEvent.keyDown(document.activeElement as Element, { key: "End" });
    await waitFor(() => expect(document.documentElement.lang).toBe("kk"));
    expect(document.activeElement).toBe(radios()[3]);
    // Past the last, the first.
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowRight" });
    await waitFor(() => expect(document.documentElement.lang).toBe("en"));
    expect(document.activeElement).toBe(radios()[0]);
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowLeft" });
    await waitFor(() => expect(document.documentElement.lang).toBe("kk"));
    fireEvent.keyDown(document.activeElement as Element, { key: "Home" });
    await waitFor(() => expect(document.documentElement.lang).toBe("en"));
    expect(tabStops()).toHaveLength(1);
  });
});
