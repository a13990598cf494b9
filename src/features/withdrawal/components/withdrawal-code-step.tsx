import type { CodeSentReply, Withdrawal } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Button } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeDestination } from "@/components/code-destination";
import { CodeStep } from "@/components/form/code-step";
import { pushAlert } from "@/lib/alerts";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";
import { withdrawalMutations } from "../api/withdrawal-queries";

/**
 * The code step of a withdrawal awaiting its code (docs/decisions.md#d5-codes): the form kit's `CodeStep` — the
 * 6-digit code confirms it, a new code after the wait — and cancel, which returns the reserved amount.
 * It confirms what is asked — the amount, the fee, what arrives and the whole address — and says where
 * the code went (the server's reply names the channel).
 */
export function WithdrawalCodeStep({
  withdrawal,
  sent: initialSent,
  onFinished,
}: {
  withdrawal: Withdrawal;
  /** The reply of the call that sent the code (absent when resuming from the history). */
  sent?: CodeSentReply | null;
  /** The application was confirmed or cancelled (or is no longer awaiting): back to the form. */
  onFinished(): void;
}) {
  const { t } = useTranslation("withdrawal");
  const format = useMoneyFormat();
  const [sent, setSent] = useState(initialSent ?? null);
  const cancel = useMutation(withdrawalMutations.cancel());

  return (
    <CodeStep
      money
      purpose="withdrawal"
      subject={withdrawal.id}
      className="money-form"
      header={t("code.header")}
      submitText={t("code.submit")}
      confirm={withdrawalMutations.validate(withdrawal.id)}
      onConfirmed={(confirmed) => {
        // `replace`: the "code sent" alert still showing is out of date.
        pushAlert({
          tone: "success",
          replace: true,
          text: {
            ns: "withdrawal",
            key: "done",
            params: { amount: format.amount(confirmed.amountToReceive, confirmed.currency) },
          },
        });
        onFinished();
      }}
      resend={withdrawalMutations.resend(withdrawal.id)}
      onResent={setSent}
      busy={cancel.isPending}
      confirmClosing
      intro={
        <>
          <p className="withdrawal-code-note" data-testid="code-note">
            {t("code.sent", {
              amount: format.amount(withdrawal.amount, withdrawal.currency),
              wallet: withdrawal.wallet,
            })}
          </p>
          {sent ? <CodeDestination sent={sent} /> : null}
          <dl className="money-facts withdrawal-preview">
            <div>
              <dt>{t("history.amount")}</dt>
              <dd data-testid="code-step-amount" {...amountAttributes(withdrawal.amount, withdrawal.currency)}>
                {format.amount(withdrawal.amount, withdrawal.currency, { exact: true })}
              </dd>
            </div>
            <div>
              <dt>{t("form.fee")}</dt>
              <dd {...amountAttributes(withdrawal.fee, withdrawal.currency)}>
                {format.amount(withdrawal.fee, withdrawal.currency, { exact: true })}
              </dd>
            </div>
            <div>
              <dt>{t("form.toReceive")}</dt>
              <dd {...amountAttributes(withdrawal.amountToReceive, withdrawal.currency)}>
                {format.amount(withdrawal.amountToReceive, withdrawal.currency, { exact: true })}
              </dd>
            </div>
            <div className="withdrawal-preview-wallet">
              <dt>{t("history.wallet")}</dt>
              <dd
                className="withdrawal-mono"
                data-testid="code-step-wallet"
              >{`${withdrawal.wallet} · ${withdrawal.network}`}</dd>
            </div>
          </dl>
        </>
      }
      actions={({ fail, clearError, confirming }) => (
        <div className="form-actions withdrawal-code-actions">
          <Button
            type="button"
            mode="plain"
            size="m"
            stretched
            className="withdrawal-cancel"
            loading={cancel.isPending}
            disabled={cancel.isPending || confirming}
            onClick={() => {
              if (cancel.isPending || confirming) return;
              clearError();
              cancel.mutate(withdrawal.id, {
                onSuccess: () => {
                  haptics.notify("success");
                  pushAlert({ tone: "info", text: { ns: "withdrawal", key: "cancelled" }, replace: true });
                  onFinished();
                },
                onError: fail,
              });
            }}
            data-testid="cancel-withdrawal"
          >
            {t("code.cancel")}
          </Button>
        </div>
      )}
    />
  );
}
