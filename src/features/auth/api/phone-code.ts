import type { CodeSentReply, PhoneConfirmReply } from "@contract";
import { callApi } from "@/lib/api-client";

/** `POST /auth/phone/confirm`: the code from the message; replies with the user, phone confirmed. */
export function confirmPhone(code: string): Promise<PhoneConfirmReply> {
  return callApi("phoneConfirm", { body: { code } });
}

/** `POST /auth/phone/resend`: a new code, once the wait is over. */
export function resendPhoneCode(): Promise<CodeSentReply> {
  return callApi("phoneResend");
}
