import type { User } from "@contract";
import { useAtom, useSetAtom } from "jotai";
import { useTranslation } from "react-i18next";
import { CodeDestination } from "@/components/code-destination";
import { CodeStep } from "@/components/form/code-step";
import { alerts } from "@/lib/alerts";
import { updateUserAtom } from "@/lib/session";
import { confirmPhone, resendPhoneCode } from "../api/phone-code";
import { phoneCodeSentAtom } from "../model/phone-code-sent";

const confirm = { mutationFn: confirmPhone };
const resend = { mutationFn: resendPhoneCode };

/**
 * Confirms the phone by the 6-digit code (`POST /auth/phone/confirm`). The user, phone confirmed, is
 * saved and the guard takes them on. A new code can be requested once the wait is over.
 */
export function PhoneVerificationForm({ user }: { user: User }) {
  const { t } = useTranslation("registration");
  const updateUser = useSetAtom(updateUserAtom);
  const [codeSent, setCodeSent] = useAtom(phoneCodeSentAtom);
  return (
    <CodeStep
      purpose="phone"
      subject={user.id}
      header={t("phoneVerification.title")}
      footer={t("phoneVerification.text", { phone: user.phone ?? "" })}
      submitText={t("phoneVerification.submit")}
      confirm={confirm}
      onConfirmed={(reply) => {
        alerts.success("VERIFICATION_SUCCEEDED");
        updateUser(reply.user);
      }}
      resend={resend}
      onResent={setCodeSent}
    >
      <CodeDestination sent={codeSent} signedIn />
    </CodeStep>
  );
}
