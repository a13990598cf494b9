import { useTranslation } from "react-i18next";
import { messageOfError, type Translate, textOfMessage } from "./form/messages";

/**
 * What a failed call says to the user, in the current language, as one string (placeholders, section
 * errors): the form kit's mapper (`messageOfError`, `textOfMessage`) — the text of the reply's error
 * code ('Not enough funds', 'Deposit creation error', ...), or what went wrong with the connection.
 */
export function useApiErrorText(): (error: unknown) => string {
  const { t } = useTranslation(["errors", "common", "auth"]);
  return (error) => textOfMessage(t as unknown as Translate, messageOfError(error));
}
