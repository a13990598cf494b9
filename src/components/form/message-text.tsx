import { useTranslation } from "react-i18next";
import { type Message, namespacesOf, type Translate, textOfMessage } from "@/lib/form/messages";

/**
 * A message in the current language. Only its own namespace is loaded, when it is first shown: the
 * login screen does not download the error and rule texts until something goes wrong.
 */
export function MessageText({ message }: { message: Message }) {
  const { t } = useTranslation(namespacesOf(message));
  return <>{textOfMessage(t as unknown as Translate, message)}</>;
}
