import { type PaymentSystem, WalletsUpdateBody } from "@contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Skeleton } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type FieldError, TextField } from "@/components/form/text-field";
import { isApiError } from "@/lib/api-client";
import { validationError } from "@/lib/form/field-errors";
import { messageOfError } from "@/lib/form/messages";
import { codeOf } from "@/lib/form/rules";
import { useForm } from "@/lib/form/use-form";
import { haptics, useClosingConfirmation } from "@/tma/hooks";
import { walletAddressError, walletMutations, walletQueries } from "../api/wallet-queries";
import "../wallets.css";

/** The contract's rule of a wallet address (an empty one would remove the wallet: here it is required). */
const ADDRESS = WalletsUpdateBody.shape.wallets.element.shape.address;

function walletErrors({ wallet }: { wallet: string }) {
  const code = wallet.trim() === "" ? "required" : codeOf(ADDRESS, wallet);
  return code ? { wallet: validationError(code) } : {};
}

/**
 * The wallet a withdrawal in `system` goes to: the saved address, or an inline field to add one
 * (`PATCH /user-data/wallets/update`); a refused address is marked next to the field.
 */
export function WithdrawalWallet({ system }: { system: PaymentSystem }) {
  const { t } = useTranslation("withdrawal");
  const wallets = useQuery(walletQueries.list());
  const save = useMutation(walletMutations.save());
  const [editing, setEditing] = useState(false);
  const form = useForm({ initial: { wallet: "" }, validate: walletErrors });
  const address = form.values.wallet;
  // The server's word when it is no field rule (no connection, a refusal of the call), until the address changes.
  const [refusal, setRefusal] = useState<FieldError>(null);
  const saved = wallets.data?.find((wallet) => wallet.paymentSystemId === system.id && wallet.address !== "");
  useClosingConfirmation(address.trim() !== "");

  if (wallets.isPending)
    return (
      <div className="money-skeleton">
        <Skeleton visible>
          <div className="skeleton-block" />
        </Skeleton>
      </div>
    );

  if (saved && !editing)
    return (
      <div className="wallet-saved" data-testid="wallet">
        <span className="wallet-saved-label">{t("wallet.label")}</span>
        <span className="wallet-saved-row">
          <span className="wallet-address" data-testid="wallet-address">
            {saved.address}
          </span>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              form.reset({ wallet: saved.address });
              setEditing(true);
            }}
          >
            {t("wallet.change")}
          </button>
        </span>
      </div>
    );

  const submit = () => {
    const value = address.trim();
    if (save.isPending) return;
    setRefusal(null);
    if (form.check().wallet) {
      haptics.notify("error");
      return;
    }
    save.mutate(
      { paymentSystemId: system.id, address: value },
      {
        onSuccess: () => {
          haptics.notify("success");
          form.reset();
          setEditing(false);
        },
        onError: (error) => {
          haptics.notify("error");
          const code = isApiError(error) ? walletAddressError(error.fields) : undefined;
          if (code === "addressFormat" || code === "required") form.setServerErrors({ wallet: validationError(code) });
          else setRefusal(messageOfError(error));
        },
      },
    );
  };

  return (
    <div className="wallet-editor">
      {!saved ? <p className="field-hint wallet-missing">{t("wallet.missing", { network: system.network })}</p> : null}
      <TextField
        label={t("wallet.address")}
        placeholder={t("wallet.placeholder", { currency: system.currency, network: system.network })}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        {...form.field("wallet")}
        error={form.errors.wallet ?? refusal}
        onValueChange={(value) => {
          form.set("wallet", value);
          setRefusal(null);
        }}
        onKeyDown={(event) => {
          // Enter saves the wallet; it must not submit the withdrawal form around it.
          if (event.key === "Enter") {
            event.preventDefault();
            submit();
          }
        }}
      />
      <div className="wallet-editor-actions">
        <Button type="button" size="s" loading={save.isPending} onClick={submit} data-testid="save-wallet">
          {t("wallet.save")}
        </Button>
        {saved ? (
          <Button
            type="button"
            size="s"
            mode="plain"
            onClick={() => {
              setEditing(false);
              form.reset();
              setRefusal(null);
            }}
          >
            {t("code.back")}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
