/** Settings uploads: the avatar (checked before upload, previewed, refused) and the verification request. */
import type { Profile, VerificationState } from "@contract";
import { fireEvent, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { alertsAtom } from "@/lib/alerts";
import { userAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { DEMO_USER, renderApp, stubRoutes } from "./test-utils";

const PROFILE: Profile = {
  login: "demo",
  fullName: "Demo Investor",
  email: null,
  emailConfirmed: false,
  phone: "+77010000000",
  phoneConfirmed: true,
  city: null,
  country: null,
  registeredAt: "2025-01-01T00:00:00.000Z",
  language: "en",
  codeChannel: "sms",
  telegramLinked: false,
  inviter: null,
  pendingPhone: null,
  verificationStatus: null,
  avatarUrl: null,
};

const NONE: VerificationState = {
  status: null,
  fullName: null,
  dateOfBirth: null,
  familyStatus: null,
  documentNumber: null,
  submittedAt: null,
  decidedAt: null,
  note: null,
};

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => "blob:preview");
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

function image(name: string, type = "image/png", size = 1024): File {
  const file = new File([new Uint8Array(8)], name, { type });
  Object.defineProperty(file, "size", { value: size });
  return file;
}

function section(name: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`[data-section="${name}"]`);
  if (!found) throw new Error(`no section ${name}`);
  return found;
}

function fileInput(scope: HTMLElement, name: string): HTMLInputElement {
  return scope.querySelector<HTMLInputElement>(`input[name="${name}"]`) as HTMLInputElement;
}

/** Settings' `screen` (`profile` holds the avatar, `verification` the request). */
async function open(screen: "profile" | "verification", routes: Parameters<typeof stubRoutes>[0]) {
  const fetchMock = stubRoutes({
    userData: { body: PROFILE },
    userDataVerification: { body: NONE },
    ...routes,
  });
  await renderApp({ path: `/settings/${screen}`, user: { ...DEMO_USER, subscription: { active: true, until: null } } });
  await waitFor(() =>
    expect(document.querySelector(`[data-section="${screen === "profile" ? "avatar" : screen}"]`)).toBeTruthy(),
  );
  /** The multipart bodies sent to `path`. */
  return (path: string) =>
    fetchMock.mock.calls.filter(([input]) => String(input).endsWith(path)).map(([, init]) => init?.body as FormData);
}

describe("avatar", () => {
  it("refuses a wrong type or a big file before sending, previews a good one and uploads it", async () => {
    const sentTo = await open("profile", {
      updateAvatar: { body: { user: { ...DEMO_USER, avatarUrl: "/media/avatars/u1.png" } } },
    });
    const avatar = section("avatar");
    fireEvent.change(fileInput(avatar, "avatar"), { target: { files: [image("a.gif", "image/gif")] } });
    expect(within(avatar).getByText("Only JPEG or PNG images are allowed").getAttribute("data-field-error")).toBe(
      "avatar",
    );
    fireEvent.change(fileInput(avatar, "avatar"), {
      target: { files: [image("a.png", "image/png", 6 * 1024 * 1024)] },
    });
    expect(within(avatar).getByText("The image must not be larger than 5 MB")).toBeTruthy();
    fireEvent.change(fileInput(avatar, "avatar"), { target: { files: [image("a.png")] } });
    await waitFor(() => expect(within(avatar).getByTestId("avatar-image").getAttribute("src")).toBe("blob:preview"));
    fireEvent.click(within(avatar).getByTestId("submit-avatar"));
    await waitFor(() => expect(appStore.get(userAtom)?.avatarUrl).toBe("/media/avatars/u1.png"));
    expect(sentTo("/user/avatar")[0]?.get("avatar")).toBeInstanceOf(File);
  });

  it("says 'Error updating image' when the server refuses it", async () => {
    await open("profile", {
      updateAvatar: { status: 400, body: { code: "IMAGE_UPDATE_FAILED", message: "Error updating image" } },
    });
    const avatar = section("avatar");
    fireEvent.change(fileInput(avatar, "avatar"), { target: { files: [image("a.jpg", "image/jpeg")] } });
    fireEvent.click(within(avatar).getByTestId("submit-avatar"));
    expect((await within(avatar).findByTestId("form-error")).textContent).toBe("Error updating image");
  });
});

describe("verification", () => {
  async function fill(scope: HTMLElement) {
    const set = (name: string, value: string) =>
      fireEvent.change(scope.querySelector(`[name="${name}"]`) as HTMLElement, { target: { value } });
    set("fullName", "Demo Investor");
    set("dateOfBirth", "1990-05-01");
    set("familyStatus", "single");
    set("documentNumber", "AB 123456");
    for (const name of ["documentPhoto", "loginPhoto", "walletPhoto"])
      fireEvent.change(fileInput(scope, name), { target: { files: [image(`${name}.jpg`, "image/jpeg")] } });
  }

  it("checks the form, sends it with the three photos and shows the status", async () => {
    const sentTo = await open("verification", {
      requestVerification: { body: { ...NONE, status: "in_process", fullName: "Demo Investor" } },
    });
    const verification = section("verification");
    const status = await within(verification).findByTestId("verification-status");
    expect(status.getAttribute("data-status")).toBe("none");
    fireEvent.click(within(verification).getByTestId("submit-verification"));
    for (const name of ["fullName", "dateOfBirth", "familyStatus", "documentNumber", "documentPhoto"])
      expect(verification.querySelector(`[data-field-error="${name}"]`)).toBeTruthy();
    // The family status shows a prompt, not its own label, until one is chosen.
    const family = verification.querySelector("select[name='familyStatus']") as HTMLSelectElement;
    expect(family.selectedOptions[0]?.textContent).toBe("Choose…");
    await fill(verification);
    // Each photo shows its name once chosen, in the app's own picker.
    expect(within(within(verification).getByTestId("photo-walletPhoto")).getByTestId("photo-name").textContent).toBe(
      "walletPhoto.jpg",
    );
    fireEvent.click(within(verification).getByTestId("submit-verification"));
    await waitFor(() =>
      expect(within(verification).getByTestId("verification-status").getAttribute("data-status")).toBe("in_process"),
    );
    const [sent] = sentTo("/user-data/verification");
    expect(sent?.get("familyStatus")).toBe("single");
    expect(sent?.get("walletPhoto")).toBeInstanceOf(File);
    // Sent is not verified: the row says the documents are in review, and nothing claims success yet.
    expect(within(verification).getByTestId("verification-in-review").textContent).toBe(
      "Documents sent and in review. We will let you know when they are checked.",
    );
    expect(appStore.get(alertsAtom).some((a) => a.text.key === "VERIFICATION_SUCCEEDED")).toBe(false);
    expect(verification.querySelector('[data-testid="submit-verification"]')).toBeNull();
  });

  it("says the rules at their fields: an adult's date of birth, the document number's characters; nothing is sent", async () => {
    const sentTo = await open("verification", { requestVerification: { body: { ...NONE, status: "in_process" } } });
    const verification = section("verification");
    await within(verification).findByTestId("verification-status");
    await fill(verification);
    const twelve = new Date(Date.now() - 12 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    fireEvent.change(verification.querySelector('[name="dateOfBirth"]') as HTMLElement, { target: { value: twelve } });
    fireEvent.change(verification.querySelector('[name="documentNumber"]') as HTMLElement, {
      target: { value: "AB#123" },
    });
    fireEvent.click(within(verification).getByTestId("submit-verification"));
    expect(verification.querySelector('[data-field-error="dateOfBirth"]')?.textContent).toBe("You must be at least 18");
    expect(verification.querySelector('[data-field-error="documentNumber"]')?.textContent).toBe(
      "Please fill out this field!",
    );
    expect(verification.querySelector('[data-field-error="fullName"]')).toBeNull();
    expect(sentTo("/user-data/verification")).toEqual([]);
  });

  it("says 'Error sending verification request' when the server refuses", async () => {
    await open("verification", {
      requestVerification: {
        status: 400,
        body: { code: "VERIFICATION_REQUEST_FAILED", message: "Error sending verification request" },
      },
    });
    const verification = section("verification");
    await within(verification).findByTestId("verification-status");
    await fill(verification);
    fireEvent.click(within(verification).getByTestId("submit-verification"));
    expect((await within(verification).findByTestId("form-error")).textContent).toBe(
      "Error sending verification request",
    );
  });
});
