/**
 * The password restore (docs/cabinet-rules.md#statuses-and-flows): reset request, then the code is validated,
 * then a new password is set.
 */
import type { CodeSentReply, OkReply, ResetPasswordValidateReply, SetPasswordBody } from "@contract";
import { callApi } from "@/lib/api-client";

/** `POST /auth/reset-password`: sends a code to the account of this login or e-mail. */
export function requestPasswordReset(login: string): Promise<CodeSentReply> {
  return callApi("resetPassword", { body: { login } });
}

/** `POST /auth/reset-password/validate`: a right code is exchanged for a single-use reset token. */
export function validateResetCode(login: string, code: string): Promise<ResetPasswordValidateReply> {
  return callApi("resetPasswordValidate", { body: { login, code } });
}

/** `POST /auth/set-password`: the new password, with the reset token. */
export function setNewPassword(body: SetPasswordBody): Promise<OkReply> {
  return callApi("setPassword", { body });
}
