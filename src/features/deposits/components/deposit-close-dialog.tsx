import { type Deposit, type DepositCloseReply, depositCloseOutcome } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Button, Cell, Section } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Sheet } from "@/components/sheet";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";
import { depositMutations } from "../api/deposit-queries";

export interface DepositCloseDialogProps {
  /** The deposit to close; the dialog is open while there is one. */
  deposit: Deposit | null;
  onDone(): void;
}

/**
 * The yes/no confirmation of closing a deposit early (docs/decisions.md#d6-deposits). Before the user agrees it
 * states, from the contract's `depositCloseOutcome`, what comes back and what is forfeited; after the
 * close, what the server's reply says happened.
 */
export function DepositCloseDialog({ deposit, onDone }: DepositCloseDialogProps) {
  const { t } = useTranslation(["deposits", "errors"]);
  const format = useMoneyFormat();
  const close = useMutation(depositMutations.close());
  const [result, setResult] = useState<DepositCloseReply | null>(null);
  const [failed, setFailed] = useState(false);

  const dismiss = () => {
    setResult(null);
    setFailed(false);
    close.reset();
    onDone();
  };

  if (!deposit) return null;
  const outcome = result ?? depositCloseOutcome(deposit);
  const amount = (testId: string, value: string) => (
    <span data-testid={testId} {...amountAttributes(value, deposit.currency)}>
      {format.amount(value, deposit.currency, { exact: true })}
    </span>
  );

  const confirm = () => {
    if (close.isPending) return;
    setFailed(false);
    close.mutate(deposit.id, {
      onSuccess: (reply) => {
        haptics.notify("success");
        setResult(reply);
      },
      onError: () => {
        haptics.notify("error");
        setFailed(true);
      },
    });
  };

  return (
    <Sheet onClose={dismiss} data-testid="close-dialog">
      <div className="money-dialog">
        <h2 className="money-dialog-title">{result ? t("close.doneTitle") : t("close.title")}</h2>
        <p className="money-dialog-text">
          {result ? t("close.doneText") : t("close.text", { currency: deposit.currency })}
        </p>
        <Section>
          <Cell className="static-cell" multiline after={amount("close-returned", outcome.returned)}>
            {t("close.returned")}
          </Cell>
          <Cell className="static-cell" multiline after={amount("close-forfeited", outcome.forfeited)}>
            {t("close.forfeited")}
          </Cell>
        </Section>
        {failed ? (
          <div className="form-error" data-testid="form-error" role="alert">
            <p>{t("DEPOSIT_CLOSE_FAILED", { ns: "errors" })}</p>
          </div>
        ) : null}
        <div className="money-dialog-actions">
          {result ? (
            <Button size="l" stretched onClick={dismiss} data-testid="close-done">
              {t("close.ok")}
            </Button>
          ) : (
            <>
              <Button
                size="l"
                stretched
                mode="filled"
                className="danger-button"
                loading={close.isPending}
                onClick={confirm}
                data-testid="close-confirm"
              >
                {t("close.confirm")}
              </Button>
              <Button size="l" stretched mode="bezeled" onClick={dismiss} data-testid="close-cancel">
                {t("close.cancel")}
              </Button>
            </>
          )}
        </div>
      </div>
    </Sheet>
  );
}
