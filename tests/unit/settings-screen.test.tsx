/** Settings: profile data with the phone code, the password rules and refusals, the code channel. */
import type { SecuritySettings } from "@contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { userAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { DEMO_PROFILE, DEMO_USER, type RouteReply, renderApp, stubRoutes } from "./test-utils";

const SECURITY: SecuritySettings = {
  codeChannel: "email",
  codesGoTo: "email",
  channels: [
    { channel: "telegram", available: false },
    { channel: "email", available: true },
    { channel: "sms", available: true },
  ],
  chatNotifications: true,
  chatLinked: true,
};

afterEach(() => vi.unstubAllGlobals());

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

async function open(routes: Parameters<typeof stubRoutes>[0] = {}) {
  const fetchMock = stubRoutes({
    userData: { body: DEMO_PROFILE },
    securitySettings: { body: SECURITY },
    ...routes,
  });
  await renderApp({ path: "/settings", user: DEMO_USER });
  await screen.findByDisplayValue("Almaty");
  return fetchMock;
}

describe("settings: profile", () => {
  it("saves the data, and a new phone waits for its code before the user object changes", async () => {
    const bodies: unknown[] = [];
    await open({
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

  it("checks the phone format and shows a taken phone and an update error", async () => {
    let reply: RouteReply<"updateUserData"> = {
      status: 409,
      body: { code: "PHONE_TAKEN", message: "This Phone Number is already registered" },
    };
    await open({ updateUserData: () => reply });
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

describe("settings: password", () => {
  it("checks the rules here and shows the server's refusal of the old password", async () => {
    const sent: unknown[] = [];
    await open({
      changePassword: (request) => {
        void request.json().then((b) => sent.push(b));
        return {
          status: 400,
          body: { code: "OLD_PASSWORD_INCORRECT", message: "You entered the old password incorrectly." },
        };
      },
    });
    const password = section("password");
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
});

describe("settings: security", () => {
  it("offers only confirmed channels and saves the choice", async () => {
    const sent: unknown[] = [];
    await open({
      updateSecuritySettings: (request) => {
        void request.json().then((b) => sent.push(b));
        return { body: { ...SECURITY, codeChannel: "sms" } };
      },
    });
    const security = section("security");
    await waitFor(() => expect(security.querySelectorAll('input[name="codeChannel"]')).toHaveLength(3));
    const radios = [...security.querySelectorAll<HTMLInputElement>('input[name="codeChannel"]')];
    expect(radios.map((r) => r.disabled)).toEqual([true, false, false]);
    fireEvent.click(radios[2] as HTMLInputElement);
    fireEvent.click(within(security).getByTestId("submit-security"));
    await waitFor(() => expect(sent).toEqual([{ codeChannel: "sms" }]));
    expect(section("language").querySelector(".language-switcher")).toBeTruthy();
  });
});

describe("settings: chat notifications", () => {
  it("switches the Telegram chat notifications off at once", async () => {
    const sent: unknown[] = [];
    await open({
      updateSecuritySettings: (request) => {
        void request.json().then((b) => sent.push(b));
        return { body: { ...SECURITY, chatNotifications: false } };
      },
    });
    const security = section("security");
    const toggle = await waitFor(() => input(security, "chatNotifications"));
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    await waitFor(() => expect(sent).toEqual([{ chatNotifications: false }]));
    await waitFor(() => expect(input(security, "chatNotifications").checked).toBe(false));
  });

  it("is off and disabled for an account not linked to Telegram, saying how to link it", async () => {
    await open({ securitySettings: { body: { ...SECURITY, chatLinked: false } } });
    const security = section("security");
    const toggle = await waitFor(() => input(security, "chatNotifications"));
    expect(toggle.checked).toBe(false);
    expect(toggle.disabled).toBe(true);
    expect(security.textContent).toContain("Sign in with Telegram once");
  });
});

describe("settings: wallets", () => {
  it("shows the withdrawal wallet of each payment system open for withdrawals", async () => {
    await open({
      paymentSystems: {
        body: [
          {
            id: "usdt-trc20",
            name: "Tether",
            currency: "USDT",
            network: "TRC20",
            refillEnabled: true,
            withdrawalEnabled: true,
            minWithdrawal: "10",
            maxWithdrawal: "1000",
            withdrawalFeePercent: "1",
          },
        ],
      },
      wallets: { body: [{ paymentSystemId: "usdt-trc20", address: "TWalletAddress0001" }] },
    });
    const wallets = section("wallets");
    expect((await within(wallets).findByTestId("wallet-address")).textContent).toBe("TWalletAddress0001");
    expect(wallets.querySelector('[data-payment-system="usdt-trc20"]')).toBeTruthy();
  });
});
