/**
 * The Settings screen's calls (user calls, docs/cabinet-rules.md#api-calls): password change, settings data (two
 * spellings of one call), the pending phone's confirmation and the security setting.
 * Always the caller's own account: the user comes from the session, never from the request.
 */
import { routes } from "@contract";
import type { KassaApp } from "../../context";
import {
  changePassword,
  confirmEmail,
  confirmPhoneChange,
  getSecurity,
  requestEmailCode,
  setSecurity,
  updateProfile,
} from "../../services/account";
import { createTelegramLink } from "../../services/telegram-link";
import { requestMeta } from "../auth";
import { defineRoute } from "../define";

export async function userSettingsRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.changePassword,
    {
      summary: "Change the password; every other session is signed out",
      description:
        "New password rules (400 VALIDATION_FAILED fields.password), then 400 " +
        "NEW_PASSWORDS_MISMATCH ('New passwords do not match'), then 400 OLD_PASSWORD_INCORRECT " +
        "('You entered the old password incorrectly.'). The caller's session stays.",
    },
    async ({ ctx, auth, body, request }) => {
      await changePassword(ctx, auth, body, requestMeta(request));
      return { ok: true as const };
    },
  );

  // The cabinet lists both `PATCH /user-data` and `POST /user/profile` for the settings data; both
  // are served by one service so that neither can drift from the other (docs/decisions.md#two-settings-data-calls).
  const profileDocs = {
    summary: "Update full name, city, country or phone (a new phone waits for its code)",
    description:
      "The registration date is read-only. A new phone is kept as pendingPhone and a code goes " +
      "out (phoneCode); POST /user-data/phone/confirm switches it. 409 PHONE_TAKEN when another " +
      "account holds it; other failures 400 UPDATE_FAILED ('Update error {error}', params.error).",
  };
  for (const route of [routes.updateUserData, routes.updateProfile]) {
    defineRoute(app, route, profileDocs, ({ ctx, auth, body, request }) =>
      updateProfile(ctx, auth, body, requestMeta(request)),
    );
  }

  defineRoute(
    app,
    routes.confirmPhoneChange,
    { summary: "Confirm the pending phone with its code (added beside the cabinet's calls)" },
    ({ ctx, auth, body, request }) => confirmPhoneChange(ctx, auth, body.code, requestMeta(request)),
  );

  defineRoute(
    app,
    routes.securitySettings,
    { summary: "Where verification codes go, and which channels the user may choose" },
    ({ ctx, auth }) => getSecurity(ctx, auth),
  );

  defineRoute(
    app,
    routes.updateSecuritySettings,
    {
      summary:
        "Choose where verification codes go (a confirmed channel only) and whether notifications also go to the Telegram chat",
    },
    ({ ctx, auth, body }) => setSecurity(ctx, auth, body),
  );

  defineRoute(
    app,
    routes.requestEmailCode,
    { summary: "Send a code to the e-mail only, to confirm it as a channel for codes (added)" },
    ({ ctx, auth, request }) => requestEmailCode(ctx, auth, requestMeta(request)),
  );

  defineRoute(
    app,
    routes.createTelegramLink,
    { summary: "A one-time link that opens the bot and links this account to Telegram (added)" },
    ({ ctx, auth }) => createTelegramLink(ctx, auth),
  );

  defineRoute(
    app,
    routes.confirmEmail,
    { summary: "Confirm the e-mail with its code; it may then be chosen for codes (added)" },
    ({ ctx, auth, body, request }) => confirmEmail(ctx, auth, body.code, requestMeta(request)),
  );
}
