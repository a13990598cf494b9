import { useTranslation } from "react-i18next";
import type { Message } from "../model/messages";

type MessageNamespace = "auth" | "validation" | "errors" | "common";

function namespaceOf(message: Message): MessageNamespace[] {
  return "text" in message ? [] : [message.ns];
}

/**
 * A message in the current language. Only its own namespace is loaded, when it is first shown: the
 * login screen does not download the error and rule texts until something goes wrong.
 */
export function MessageText({ message }: { message: Message }) {
  const { t, i18n } = useTranslation([...namespaceOf(message), "auth"]);
  if ("text" in message) return <>{message.text}</>;
  switch (message.ns) {
    case "validation":
      // A code this version of the app does not know (a newer server) still says what to do.
      return (
        <>
          {i18n.exists(message.key, { ns: "validation" })
            ? t(message.key, { ns: "validation" })
            : t("fieldsWithErrors")}
        </>
      );
    case "errors":
      return <>{t(message.key, { ns: "errors", ...message.params })}</>;
    case "common":
      return <>{t(message.key, { ns: "common" })}</>;
    case "auth":
      return <>{t(message.key, { ns: "auth" })}</>;
  }
}
