/**
 * The Settings screen's calls (spec §7 User; issue 6): password change, settings data (two
 * spellings of one call), the pending phone's confirmation and the security setting.
 * Always the caller's own account: the user comes from the session, never from the request.
 */
import { routes } from "@contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { KassaApp } from "../../app";
import { requireUser } from "../../plugins/auth";
import { changePassword, confirmPhoneChange, getSecurity, setSecurity, updateProfile } from "../../services/account";
import { authDeps, requestMeta } from "../auth";
import { withErrors } from "../responses";

const tags = ["user", "settings"];
const security = [{ bearer: [] }];

export const userSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const kassa = app as unknown as KassaApp;
  const deps = (request: FastifyRequest) => authDeps(kassa, request);

  app.patch(
    routes.changePassword.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Change the password; every other session is signed out",
        description:
          "New password rules of spec §5 (400 VALIDATION_FAILED fields.password), then 400 " +
          "NEW_PASSWORDS_MISMATCH ('New passwords do not match'), then 400 OLD_PASSWORD_INCORRECT " +
          "('You entered the old password incorrectly.'). The caller's session stays.",
        security,
        body: routes.changePassword.body,
        response: withErrors({ 200: routes.changePassword.response }),
      },
    },
    async (request) => {
      await changePassword(deps(request), requireUser(request), request.body, requestMeta(request));
      return { ok: true as const };
    },
  );

  // The spec lists both `PATCH /user-data` and `POST /user/profile` for the settings data; both
  // are served by one service so that neither can drift from the other.
  // The spec lists both `PATCH /user-data` and `POST /user/profile` for the settings data; both
  // are served by one service so that neither can drift from the other.
  const profileSchema = {
    tags,
    summary: "Update full name, city, country or phone (a new phone waits for its code)",
    description:
      "The registration date is read-only. A new phone is kept as pendingPhone and a code goes " +
      "out (phoneCode); POST /user-data/phone/confirm switches it. 409 PHONE_TAKEN when another " +
      "account holds it; other failures 400 UPDATE_FAILED ('Update error {error}', params.error).",
    security,
    body: routes.updateUserData.body,
    response: withErrors({ 200: routes.updateUserData.response }),
  };
  app.patch(routes.updateUserData.path, { onRequest: app.authenticate, schema: profileSchema }, async (request) =>
    updateProfile(deps(request), requireUser(request), request.body, requestMeta(request)),
  );
  app.post(routes.updateProfile.path, { onRequest: app.authenticate, schema: profileSchema }, async (request) =>
    updateProfile(deps(request), requireUser(request), request.body, requestMeta(request)),
  );

  app.post(
    routes.confirmPhoneChange.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Confirm the pending phone with its code (added beside the spec's calls)",
        security,
        body: routes.confirmPhoneChange.body,
        response: withErrors({ 200: routes.confirmPhoneChange.response }),
      },
    },
    async (request) => confirmPhoneChange(deps(request), requireUser(request), request.body.code, requestMeta(request)),
  );

  app.get(
    routes.securitySettings.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Where verification codes go, and which channels the user may choose",
        security,
        response: withErrors({ 200: routes.securitySettings.response }),
      },
    },
    async (request) => getSecurity(kassa, requireUser(request)),
  );

  app.patch(
    routes.updateSecuritySettings.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary:
          "Choose where verification codes go (a confirmed channel only) and whether notifications also go to the Telegram chat",
        security,
        body: routes.updateSecuritySettings.body,
        response: withErrors({ 200: routes.updateSecuritySettings.response }),
      },
    },
    async (request) => setSecurity(kassa, requireUser(request), request.body),
  );
};
