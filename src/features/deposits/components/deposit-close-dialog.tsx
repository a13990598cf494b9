import { type Deposit, type DepositCloseReply, depositCloseOutcome } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Cell, Section } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Sheet } from "@/components/sheet";
import { ApiError } from "@/lib/api-client";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";
import { depositMutations, depositQueries } from "../api/deposit-queries";

export interface DepositCloseDialogProps {
  /** The deposit to close; the dialog is open while there is one. */
  deposit: Deposit | null;
  onDone(): void;
}

/**
 * The yes/no confirmation of closing a deposit early (docs/decisions.md#d6-deposits). Before the user agrees it
 * states, from the contract's `depositCloseOutcome`, what comes back and what is forfeited, and sends those
 * amounts with the close: the server closes at them, or, when a day accrued in between, refuses and says its
 * own, which the sheet then shows for the user to agree to again. After the close, what the server's reply
 * says happened.
 */
export function DepositCloseDialog({ deposit, onDone }: DepositCloseDialogProps) {
  const { t } = useTranslation(["deposits", "errors"]);
  const format = useMoneyFormat();
  const client = useQueryClient();
  const close = useMutation(depositMutations.close());
  const [result, setResult] = useState<DepositCloseReply | null>(null);
  const [failed, setFailed] = useState(false);
  /** The server's amounts when they differed from those shown (the deposit accrued meanwhile). */
  const [changed, setChanged] = useState<{ id: string; returned: string; forfeited: string } | null>(null);

  const dismiss = () => {
    setResult(null);
    setFailed(false);
    setChanged(null);
    close.reset();
    onDone();
  };

  if (!deposit) return null;
  const outcome = result ?? (changed?.id === deposit.id ? changed : null) ?? depositCloseOutcome(deposit);
  const amount = (testId: string, value: string) => (
    <span data-testid={testId} {...amountAttributes(value, deposit.currency)}>
      {format.amount(value, deposit.currency, { exact: true })}
    </span>
  );

  const confirm = () => {
    if (close.isPending) return;
    setFailed(false);
    const agreed = { returned: outcome.returned, forfeited: outcome.forfeited };
    close.mutate(
      { id: deposit.id, agreed },
      {
        onSuccess: (reply) => {
          haptics.notify("success");
          setResult(reply);
        },
        onError: (error) => {
          haptics.notify("error");
          const params = error instanceof ApiError ? error.params : undefined;
          if (params?.reason === "amounts_changed" && params.returned && params.forfeited) {
            setChanged({ id: deposit.id, returned: params.returned, forfeited: params.forfeited });
            // The list's "accrued" and days are behind too.
            void client.invalidateQueries({ queryKey: depositQueries.all() });
            return;
          }
          setFailed(true);
        },
      },
    );
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
        {changed && !result ? (
          <div className="form-error" data-testid="close-changed" role="alert">
            <p>{t("close.changed")}</p>
          </div>
        ) : null}
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
