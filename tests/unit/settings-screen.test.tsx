/**
 * Settings as a list of screens: each cell's status and the screen it opens; the profile (with the phone code,
 * saved by the Main button inside Telegram), the password, where codes really go and the channel choice, the
 * chat notifications, the wallets and the language.
 */
import type { SecuritySettings } from "@contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18next, LANGUAGE_STORAGE_KEY, setLanguage } from "@/config/i18n";
import { userAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { type MainButtonParams, setTelegramBridge } from "@/tma/bridge";
import { aPaymentSystem, aSecuritySettings } from "./fixtures";
import { DEMO_PROFILE, DEMO_USER, fakeBridge, type RouteReply, renderApp, stubRoutes } from "./test-utils";

const SECURITY = aSecuritySettings();

afterEach(() => {
  setTelegramBridge(null);
  vi.unstubAllGlobals();
});

function section(name: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`[data-section="${name}"]`);
  if (!found) throw new Error(`no section ${name}`);
  return found;
}

function input(scope: HTMLElement, name: string): HTMLInputElement {
  const found = scope.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  if (!found) throw new Error(`no input ${name}`);
  return found;
}

function cell(name: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`[data-settings-cell="${name}"]`);
  if (!found) throw new Error(`no cell ${name}`);
  return found;
}

async function open(path: string, routes: Parameters<typeof stubRoutes>[0] = {}) {
  const fetchMock = stubRoutes({
    userData: { body: DEMO_PROFILE },
    securitySettings: { body: SECURITY },
    ...routes,
  });
  const view = await renderApp({ path, user: DEMO_USER });
  return { fetchMock, ...view };
}

const openProfile = async (routes: Parameters<typeof stubRoutes>[0] = {}) => {
  const view = await open("/settings/profile", routes);
  await screen.findByDisplayValue("Almaty");
  return view;
};

describe("settings: the list", () => {
  it("shows each screen's status in one line and opens the screen it names", async () => {
    const { router } = await open("/settings", {
      wallets: { body: [{ paymentSystemId: "usdt-trc20", address: "TWalletAddress0001" }] },
      userData: { body: { ...DEMO_PROFILE, verificationStatus: "in_process" } },
    });
    await waitFor(() => expect(cell("security").textContent).toContain("Codes: E-mail · d***@example.com"));
    expect(cell("profile").textContent).toContain("Demo Investor");
    await waitFor(() => expect(cell("wallets").textContent).toContain("Wallets: 1"));
    await waitFor(() => expect(cell("verification").textContent).toContain("In progress"));
    expect(cell("subscription").textContent).toContain("Not active");
    expect(cell("notifications").textContent).toContain("In the Telegram chat");
    expect(cell("language").textContent).toContain("English");
    // The old single page's sections are gone from the list.
    expect(document.querySelector('input[name="city"]')).toBeNull();

    fireEvent.click(cell("profile"));
    await screen.findByDisplayValue("Almaty");
    expect(router.state.location.pathname).toBe("/settings/profile");
    expect(document.querySelector('[data-settings-screen="profile"]')).toBeTruthy();
    // The title is set by the screen's effect, which may run after its first paint.
    await waitFor(() => expect(document.title).toContain("Profile"));
    await act(async () => {
      router.navigate(-1);
    });
    fireEvent.click(await waitFor(() => cell("security")));
    await screen.findByTestId("codes-go-to");
    expect(router.state.location.pathname).toBe("/settings/security");
  });

  it("leads an unknown screen back to the list", async () => {
    const { router } = await open("/settings/nothing-here");
    await waitFor(() => expect(router.state.location.pathname).toBe("/settings"));
    expect(await waitFor(() => cell("profile"))).toBeTruthy();
  });
});

describe("settings: profile", () => {
  it("saves the data, and a new phone waits for its code before the user object changes", async () => {
    const bodies: unknown[] = [];
    await openProfile({
      updateUserData: (request) => {
        void request.json().then((b) => bodies.push(b));
        return {
          body: {
            profile: { ...DEMO_PROFILE, city: "Astana", pendingPhone: "+77019999999" },
            user: { ...DEMO_USER },
            phoneCode: { message: "Request successfully sent" as const, resendAfterSeconds: 60, expiresInSeconds: 600 },
          },
        };
      },
      confirmPhoneChange: {
        body: { profile: { ...DEMO_PROFILE, phone: "+77019999999" }, user: { ...DEMO_USER, phone: "+77019999999" } },
      },
    });
    const profile = section("profile");
    expect(within(profile).getByTestId("registered-at").textContent).toMatch(/2025/);
    fireEvent.change(input(profile, "city"), { target: { value: "Astana" } });
    fireEvent.change(input(profile, "phone"), { target: { value: "+77019999999" } });
    fireEvent.click(within(profile).getByTestId("submit-profile"));
    await within(profile).findByTestId("phone-code");
    expect(bodies[0]).toMatchObject({ city: "Astana", phone: "+77019999999" });
    fireEvent.change(input(profile, "code"), { target: { value: "123456" } });
    fireEvent.click(within(profile).getByTestId("submit-phone-code"));
    await waitFor(() => expect(appStore.get(userAtom)?.phone).toBe("+77019999999"));
  });

  it("says a field's rule from the first submit on, not on leaving it", async () => {
    const sent: unknown[] = [];
    await openProfile({
      updateUserData: (request) => {
        void request.json().then((b) => sent.push(b));
        return { body: { profile: DEMO_PROFILE, user: DEMO_USER, phoneCode: null } };
      },
    });
    const profile = section("profile");
    fireEvent.change(input(profile, "phone"), { target: { value: "8701" } });
    fireEvent.blur(input(profile, "phone"));
    expect(profile.querySelector('[data-field-error="phone"]')).toBeNull();
    fireEvent.click(within(profile).getByTestId("submit-profile"));
    expect((await within(profile).findByText(/plus sign/)).getAttribute("data-field-error")).toBe("phone");
    expect(sent).toHaveLength(0);
  });

  it("checks the phone format and shows a taken phone and an update error", async () => {
    let reply: RouteReply<"updateUserData"> = {
      status: 409,
      body: { code: "PHONE_TAKEN", message: "This Phone Number is already registered" },
    };
    await openProfile({ updateUserData: () => reply });
    const profile = section("profile");
    fireEvent.change(input(profile, "phone"), { target: { value: "8701" } });
    fireEvent.click(within(profile).getByTestId("submit-profile"));
    expect((await within(profile).findByText(/plus sign/)).getAttribute("data-field-error")).toBe("phone");
    fireEvent.change(input(profile, "phone"), { target: { value: "+77018888888" } });
    fireEvent.click(within(profile).getByTestId("submit-profile"));
    expect(
      (await within(profile).findByText("This Phone Number is already registered")).getAttribute("data-field-error"),
    ).toBe("phone");
    reply = { status: 400, body: { code: "UPDATE_FAILED", message: "Update error", params: { error: "db" } } };
    fireEvent.click(within(profile).getByTestId("submit-profile"));
    expect((await within(profile).findByTestId("form-error")).textContent).toBe("Update error db");
  });
});

describe("settings: profile inside Telegram", () => {
  it("saves with the Main button, and the page has no save button of its own", async () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    const sent: unknown[] = [];
    await openProfile({
      updateUserData: (request) => {
        void request.json().then((b) => sent.push(b));
        return { body: { profile: { ...DEMO_PROFILE, city: "Astana" }, user: DEMO_USER, phoneCode: null } };
      },
    });
    const mainButton = () => {
      const state: MainButtonParams = {};
      for (const [params] of fake.bridge.mainButton.set.mock.calls) Object.assign(state, params);
      return state;
    };
    await waitFor(() => expect(mainButton()).toMatchObject({ isVisible: true, text: "Save", isEnabled: true }));
    expect(screen.queryByTestId("submit-profile")).toBeNull();
    fireEvent.change(input(section("profile"), "city"), { target: { value: "Astana" } });
    act(() => fake.pressMain());
    await waitFor(() => expect(sent).toEqual([{ fullName: "Demo Investor", city: "Astana", country: "Kazakhstan" }]));
    await waitFor(() => expect(within(section("profile")).getByTestId("form-success").textContent).toBe("Saved"));
    expect(fake.bridge.haptics.notify).toHaveBeenCalledWith("success");
  });
});

describe("settings: password", () => {
  it("checks the rules here and shows the server's refusal of the old password", async () => {
    const sent: unknown[] = [];
    await open("/settings/password", {
      changePassword: (request) => {
        void request.json().then((b) => sent.push(b));
        return {
          status: 400,
          body: { code: "OLD_PASSWORD_INCORRECT", message: "You entered the old password incorrectly." },
        };
      },
    });
    const password = await waitFor(() => section("password"));
    fireEvent.change(input(password, "oldPassword"), { target: { value: "demo2026pass" } });
    fireEvent.change(input(password, "password"), { target: { value: "Strong2026x" } });
    fireEvent.change(input(password, "passwordRepeat"), { target: { value: "Strong2026y" } });
    fireEvent.click(within(password).getByTestId("submit-password"));
    expect((await within(password).findByText("New passwords do not match")).getAttribute("data-field-error")).toBe(
      "passwordRepeat",
    );
    expect(sent).toHaveLength(0);
    fireEvent.change(input(password, "passwordRepeat"), { target: { value: "Strong2026x" } });
    fireEvent.click(within(password).getByTestId("submit-password"));
    expect(
      (await within(password).findByText("You entered the old password incorrectly.")).getAttribute("data-field-error"),
    ).toBe("oldPassword");
  });

  it("is opened from Security", async () => {
    const { router } = await open("/settings/security");
    fireEvent.click(await waitFor(() => cell("password")));
    await waitFor(() => expect(router.state.location.pathname).toBe("/settings/password"));
    await waitFor(() => section("password"));
  });
});

describe("settings: security", () => {
  it("says where codes go and which channels are confirmed; a tap on a confirmed one saves it", async () => {
    const sent: unknown[] = [];
    await open("/settings/security", {
      updateSecuritySettings: (request) => {
        void request.json().then((b) => sent.push(b));
        return { body: { ...SECURITY, codeChannel: "sms", codesGoTo: "sms", destination: "+7******0000" } };
      },
    });
    const goesTo = await screen.findByTestId("codes-go-to");
    expect(goesTo.textContent).toBe("E-mail · d***@example.com");
    const security = section("security");
    const rows = [...security.querySelectorAll<HTMLElement>("[data-channel]")];
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining("Not linked"),
      expect.stringContaining("Confirmed"),
      expect.stringContaining("Confirmed"),
    ]);
    const radios = [...security.querySelectorAll<HTMLInputElement>('input[name="codeChannel"]')];
    expect(radios.map((r) => r.disabled)).toEqual([true, false, false]);
    expect(radios.map((r) => r.checked)).toEqual([false, true, false]);
    fireEvent.click(radios[2] as HTMLInputElement);
    await waitFor(() => expect(sent).toEqual([{ codeChannel: "sms" }]));
    await waitFor(() => expect(screen.getByTestId("codes-go-to").textContent).toBe("SMS · +7******0000"));
  });

  it("says so when the chosen channel cannot take codes and they go elsewhere, or nowhere", async () => {
    const unconfirmed = {
      ...SECURITY,
      codesGoTo: "telegram" as const,
      destination: undefined,
      channels: [
        { channel: "telegram" as const, available: true },
        { channel: "email" as const, available: false, destination: "d***@example.com" },
        { channel: "sms" as const, available: false },
      ],
    };
    let reply: RouteReply<"securitySettings"> = { body: unconfirmed };
    const { queryClient } = await open("/settings/security", { securitySettings: () => reply });
    const goesTo = await screen.findByTestId("codes-go-to");
    expect(goesTo.textContent).toBe("Telegram");
    expect(document.body.textContent).toContain(
      "You chose E-mail, but codes cannot be sent there, so they go to Telegram.",
    );
    const hints = screen.getByTestId("confirm-hints");
    expect(within(hints).getByTestId("add-phone").getAttribute("href")).toBe("/settings/profile");
    reply = { body: { ...unconfirmed, codesGoTo: null } };
    await act(() => queryClient.invalidateQueries());
    await waitFor(() => expect(screen.getByTestId("codes-go-to").textContent).toBe("No channel can take codes now"));
    expect(document.body.textContent).toContain("no other channel of yours can take them");
  });
});

describe("settings: a new account's e-mail", () => {
  it("says that codes go to the registration e-mail although it is not confirmed, until it is", async () => {
    const fresh: SecuritySettings = {
      ...SECURITY,
      channels: [
        { channel: "telegram", available: false },
        { channel: "email", available: false, destination: "d***@example.com" },
        { channel: "sms", available: false, destination: "+7******0000" },
      ],
    };
    let reply: RouteReply<"securitySettings"> = { body: fresh };
    const { queryClient } = await open("/settings/security", { securitySettings: () => reply });
    expect((await screen.findByTestId("codes-go-to")).textContent).toBe("E-mail · d***@example.com");
    const text = () => document.body.textContent ?? "";
    await waitFor(() =>
      expect(text()).toContain(
        "Codes are sent to the e-mail address you gave when you registered, although it has not been confirmed yet.",
      ),
    );
    // Not the usual hint, which says only a confirmed channel takes codes.
    expect(text()).not.toContain("Only a confirmed channel can be chosen.");
    reply = { body: SECURITY };
    await act(() => queryClient.invalidateQueries());
    await waitFor(() => expect(text()).toContain("Only a confirmed channel can be chosen."));
    expect(text()).not.toContain("not confirmed yet");
  });
});

describe("settings: confirming the e-mail", () => {
  it("sends a code to the e-mail, takes it in a sheet, and the e-mail is then confirmed", async () => {
    const unconfirmed: SecuritySettings = {
      ...SECURITY,
      channels: [
        { channel: "telegram", available: false },
        { channel: "email", available: false, destination: "d***@example.com" },
        { channel: "sms", available: true, destination: "+7******0000" },
      ],
    };
    const codes: unknown[] = [];
    await open("/settings/security", {
      securitySettings: { body: unconfirmed },
      requestEmailCode: {
        body: {
          message: "Request successfully sent",
          resendAfterSeconds: 60,
          expiresInSeconds: 600,
          channel: "email",
          destination: "d***@example.com",
        },
      },
      confirmEmail: (request) => {
        void request.json().then((b) => codes.push(b));
        return { body: SECURITY };
      },
    });
    const email = () => section("security").querySelector<HTMLElement>('[data-channel="email"]');
    await waitFor(() => expect(email()?.textContent).toContain("Not confirmed"));
    fireEvent.click(screen.getByTestId("confirm-email"));
    const sheet = await screen.findByTestId("email-code");
    expect(sheet.textContent).toContain("d***@example.com");
    fireEvent.change(input(sheet, "code"), { target: { value: "123456" } });
    fireEvent.click(within(sheet).getByTestId("submit"));
    await waitFor(() => expect(codes).toEqual([{ code: "123456" }]));
    await waitFor(() => expect(screen.queryByTestId("email-code")).toBeNull());
    await waitFor(() => expect(email()?.textContent).toContain("Confirmed"));
    expect(within(section("security")).getByTestId("form-success").textContent).toBe("E-mail confirmed");
    expect(screen.queryByTestId("confirm-email")).toBeNull();
  });

  it("says 'Code sending error' when the server cannot send to the e-mail", async () => {
    await open("/settings/security", {
      securitySettings: {
        body: {
          ...SECURITY,
          channels: [
            { channel: "telegram", available: false },
            { channel: "email", available: false, destination: "d***@example.com" },
            { channel: "sms", available: true },
          ],
        },
      },
      requestEmailCode: { status: 502, body: { code: "CODE_SEND_FAILED", message: "Code sending error" } },
    });
    fireEvent.click(await screen.findByTestId("confirm-email"));
    expect((await screen.findByTestId("form-error")).textContent).toContain("Code sending error");
    expect(screen.queryByTestId("email-code")).toBeNull();
  });
});

describe("settings: notifications", () => {
  it("switches the Telegram chat notifications off at once", async () => {
    const sent: unknown[] = [];
    await open("/settings/notifications", {
      updateSecuritySettings: (request) => {
        void request.json().then((b) => sent.push(b));
        return { body: { ...SECURITY, chatNotifications: false } };
      },
    });
    const notifications = await waitFor(() => section("notifications"));
    const toggle = await waitFor(() => input(notifications, "chatNotifications"));
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    await waitFor(() => expect(sent).toEqual([{ chatNotifications: false }]));
    await waitFor(() => expect(input(notifications, "chatNotifications").checked).toBe(false));
  });

  it("is off and disabled for an account not linked to Telegram, saying why", async () => {
    await open("/settings/notifications", { securitySettings: { body: { ...SECURITY, chatLinked: false } } });
    const notifications = await waitFor(() => section("notifications"));
    const toggle = await waitFor(() => input(notifications, "chatNotifications"));
    expect(toggle.checked).toBe(false);
    expect(toggle.disabled).toBe(true);
    expect(notifications.textContent).toContain("not linked to Telegram");
  });
});

describe("settings: wallets", () => {
  it("shows the withdrawal wallet of each payment system open for withdrawals, shortened, the whole on tap", async () => {
    await open("/settings/wallets", {
      paymentSystems: {
        body: [aPaymentSystem()],
      },
      wallets: { body: [{ paymentSystemId: "usdt-trc20", address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE" }] },
    });
    const wallets = await waitFor(() => section("wallets"));
    // Shortened on one line, not wrapped mid-string; a tap shows the whole, another shortens it again.
    const address = await within(wallets).findByTestId("wallet-address");
    expect(address.textContent).toBe("TQn9Y2…bLSE");
    fireEvent.click(address);
    expect(address.textContent).toBe("TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE");
    expect(address.getAttribute("aria-expanded")).toBe("true");
    fireEvent.click(address);
    expect(address.textContent).toBe("TQn9Y2…bLSE");
    expect(wallets.querySelector('[data-payment-system="usdt-trc20"]')).toBeTruthy();
  });
});

describe("settings: language", () => {
  it("switches the language with a tap, and the list says the new one", async () => {
    const { router } = await open("/settings/language");
    const list = await screen.findByTestId("language-list");
    const german = list.querySelector<HTMLInputElement>('input[value="de"]');
    expect(list.querySelector<HTMLInputElement>('input[value="en"]')?.checked).toBe(true);
    fireEvent.click(german as HTMLInputElement);
    await waitFor(() => expect(i18next.language).toBe("de"));
    await act(async () => {
      router.navigate("/settings");
    });
    await waitFor(() => expect(cell("language").textContent).toContain("Deutsch"));
    await act(() => setLanguage("en"));
  });

  const chooseGerman = async () => {
    const list = await screen.findByTestId("language-list");
    fireEvent.click(list.querySelector<HTMLInputElement>('input[value="de"]') as HTMLInputElement);
    await waitFor(() => expect(i18next.language).toBe("de"));
  };
  const germanReply = () => ({
    body: {
      profile: { ...DEMO_PROFILE, language: "de" as const },
      user: { ...DEMO_USER, language: "de" as const },
      phoneCode: null,
    },
  });

  it("sends the chosen language to the server once, and the user object then says it", async () => {
    const sent: unknown[] = [];
    await open("/settings/language", {
      updateUserData: (request) => {
        void request.json().then((body) => sent.push(body));
        return germanReply();
      },
    });
    await chooseGerman();
    await waitFor(() => expect(appStore.get(userAtom)?.language).toBe("de"));
    await waitFor(() => expect(sent).toEqual([{ language: "de" }]));
    // Nothing more goes: the server's language and the choice agree.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(sent).toHaveLength(1);
  });

  it("keeps the choice when the send fails and sends it again later", async () => {
    let calls = 0;
    await open("/settings/language", {
      updateUserData: () => {
        calls += 1;
        if (calls === 1)
          return { status: 500, body: { code: "INTERNAL", message: "An error occurred, try again later" } };
        return germanReply();
      },
    });
    await chooseGerman();
    await waitFor(() => expect(calls).toBe(1));
    // The failed send leaves the language applied here and the user object as the server has it.
    expect(i18next.language).toBe("de");
    expect(appStore.get(userAtom)?.language).toBe("en");
    // The browser back online (or the pause's end) sends it again.
    act(() => {
      window.dispatchEvent(new Event("online"));
    });
    await waitFor(() => expect(appStore.get(userAtom)?.language).toBe("de"));
    expect(calls).toBe(2);
  });

  it("sends nothing for a language nobody chose", async () => {
    let calls = 0;
    stubRoutes({
      userData: { body: DEMO_PROFILE },
      securitySettings: { body: SECURITY },
      updateUserData: () => {
        calls += 1;
        return germanReply();
      },
    });
    // The language shown (English, the browser's) is no choice: nothing is saved, and the account's stays.
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBeNull();
    await renderApp({ path: "/settings", user: { ...DEMO_USER, language: "kk" } });
    await waitFor(() => expect(cell("language").textContent).toContain("English"));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(calls).toBe(0);
    expect(appStore.get(userAtom)?.language).toBe("kk");
  });
});
