/** One password hint: registration, the password reset and the password change state the same rules. */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@contract";
import { cleanup, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { oneSetting } from "./route-stubs";
import { DEMO_PROFILE, DEMO_USER, renderApp, stubRoutes } from "./test-utils";

/** The note a field is described by (its hint while it has no error). */
function noteOf(name: string): string | null | undefined {
  const id = document.querySelector(`input[name="${name}"]`)?.getAttribute("aria-describedby");
  return id ? document.getElementById(id)?.textContent : undefined;
}

const RULES = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} Latin letters and digits, with at least one letter, one digit and three different characters; not a common password and not containing your login.`;

describe("the password rules", () => {
  it("are one text, with the contract's lengths, in registration and in the password change", async () => {
    stubRoutes({ setting: oneSetting("defaultInviter", "kassa") });
    await renderApp({ path: "/register/alice" });
    await waitFor(() => expect(noteOf("password")).toBe(RULES));
    cleanup();

    stubRoutes({
      userData: { body: DEMO_PROFILE },
      securitySettings: {
        body: {
          codeChannel: "email",
          codesGoTo: "email",
          channels: [{ channel: "email", available: true }],
          chatNotifications: true,
          chatLinked: true,
        },
      },
    });
    await renderApp({ path: "/settings/password", user: DEMO_USER });
    await waitFor(() => expect(document.querySelector('[data-section="password"]')?.textContent).toContain(RULES));
  });
});
