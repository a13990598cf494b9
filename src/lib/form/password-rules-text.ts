import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@contract";
import { useTranslation } from "react-i18next";

/**
 * The one text stating the new-password rules (docs/cabinet-rules.md#field-rules), shown by registration, the
 * password reset and the password change alike: the contract's lengths filled into `common.passwordRules`.
 */
export function usePasswordRulesText(): string {
  const { t } = useTranslation("common");
  return t("passwordRules", { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });
}
