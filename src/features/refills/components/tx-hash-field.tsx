// The transaction hash of a refill, as the refill form and the waiting refill's sheet ask for it.
import { useTranslation } from "react-i18next";
import { TextField, type TextFieldProps } from "@/components/form/text-field";

/**
 * The hash field: typed as written (no capitals, corrections or suggestions); the contract's rule or the server's
 * refusal said in the refill's own words (`invalid`), whatever message the form holds.
 */
export function TxHashField({
  invalid,
  ...field
}: Omit<TextFieldProps, "error" | "placeholder"> & { invalid: boolean }) {
  const { t } = useTranslation("refill");
  return (
    <TextField
      placeholder={t("form.txHashPlaceholder")}
      autoComplete="off"
      autoCapitalize="off"
      spellCheck={false}
      {...field}
      error={invalid ? t("txHashInvalid") : null}
    />
  );
}
