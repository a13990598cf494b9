import { useTranslation } from "react-i18next";
import { isApiError } from "./api-client";

/**
 * What a failed money call says to the user, in the current language: the text of the reply's error
 * code ('Not enough funds', 'Deposit creation error', ...), or what went wrong with the connection.
 */
export function useApiErrorText(): (error: unknown) => string {
  const { t } = useTranslation(["errors", "common"]);
  return (error) => {
    if (!isApiError(error)) return t("INTERNAL", { ns: "errors" });
    if (error.kind === "network") return t("apiError.network", { ns: "common" });
    if (error.kind === "timeout") return t("apiError.timeout", { ns: "common" });
    if (error.kind === "parse") return t("apiError.parse", { ns: "common" });
    return t(error.code ?? "INTERNAL", { ns: "errors", error: "", ...error.params });
  };
}
