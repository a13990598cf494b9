import { type Refill, RefillUpdateBody } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Button, Cell, Section } from "@telegram-apps/telegram-ui";
import { QRCodeSVG } from "qrcode.react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyableValue } from "@/components/details-sheet";
import { FormErrorBanner } from "@/components/form/form-footer";
import { TextField } from "@/components/form/text-field";
import { Sheet } from "@/components/sheet";
import { serverFieldErrors, validationError } from "@/lib/form/field-errors";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { codeOf } from "@/lib/form/rules";
import { useForm } from "@/lib/form/use-form";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { useCopied } from "@/lib/use-copied";
import { haptics } from "@/tma/hooks";
import { refillMutations } from "../api/refill-queries";

/** The contract's rule of the hash (`PATCH /funds/refills/:id`). */
function hashErrors({ txHash }: { txHash: string }) {
  const code = codeOf(RefillUpdateBody.shape.txHash, txHash);
  return code ? { txHash: validationError(code) } : {};
}

/**
 * The wallet dialog (docs/decisions.md#d6-refills): where to pay (address, QR code, copy), how much and on which
 * network, and the transaction hash to add or correct while the refill waits.
 */
export function WalletDialog({ refill, onClose }: { refill: Refill | null; onClose(): void }) {
  const { t } = useTranslation("refill");
  if (!refill) return null;
  return (
    <Sheet onClose={onClose} data-testid="wallet-dialog" aria-label={t("wallet.title")}>
      <WalletDialogBody key={refill.id} initial={refill} onClose={onClose} />
    </Sheet>
  );
}

function WalletDialogBody({ initial, onClose }: { initial: Refill; onClose(): void }) {
  const { t } = useTranslation(["refill", "enums"]);
  const format = useMoneyFormat();
  const [refill, setRefill] = useState(initial);
  const form = useForm({ initial: { txHash: initial.txHash ?? "" }, validate: hashErrors });
  const [copied, setCopied] = useCopied();
  const [formError, setFormError] = useState<FormError | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation(refillMutations.setTxHash());
  const waiting = refill.status === "waiting";

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(refill.address);
      haptics.notify("success");
      setCopied();
    } catch {
      haptics.notify("error");
    }
  };

  const submitHash = (event: FormEvent) => {
    event.preventDefault();
    const value = form.values.txHash.trim();
    if (form.check().txHash) {
      haptics.notify("error");
      return;
    }
    setFormError(null);
    save.mutate(
      { id: refill.id, txHash: value },
      {
        onSuccess: (updated) => {
          haptics.notify("success");
          setRefill(updated);
          setSaved(true);
        },
        onError: (error) => {
          haptics.notify("error");
          form.setServerErrors(serverFieldErrors(error, ["txHash"]));
          setFormError(formErrorOf(error));
        },
      },
    );
  };

  const requested = format.amount(refill.amountRequested, refill.currency, { exact: true });
  return (
    <div className="money-dialog">
      <h2 className="money-dialog-title">{t("wallet.title")}</h2>
      <p className="money-dialog-text">{t("wallet.note", { amount: requested, network: refill.network })}</p>
      <div className="wallet-qr" data-testid="refill-qr" role="img" aria-label={t("wallet.qr")}>
        <QRCodeSVG value={refill.address} size={176} marginSize={0} aria-hidden="true" />
      </div>
      <Section>
        <Cell className="static-cell" subtitle={t("wallet.address")} multiline>
          <span className="wallet-address" data-testid="refill-address">
            {refill.address}
          </span>
        </Cell>
        <div className="form-actions">
          <Button size="m" mode="bezeled" stretched onClick={() => void copy()} data-testid="copy-address">
            {copied ? t("wallet.copied") : t("wallet.copy")}
          </Button>
        </div>
        <Cell
          className="static-cell"
          after={
            <span data-testid="refill-amount" {...amountAttributes(refill.amountRequested, refill.currency)}>
              {requested}
            </span>
          }
        >
          {t("wallet.amount")}
        </Cell>
        {refill.amountCredited !== null ? (
          <Cell
            className="static-cell"
            after={
              <span data-testid="refill-credited" {...amountAttributes(refill.amountCredited, refill.currency)}>
                {format.amount(refill.amountCredited, refill.currency, { exact: true })}
              </span>
            }
          >
            {t("wallet.credited")}
          </Cell>
        ) : null}
        <Cell className="static-cell" after={refill.network}>
          {t("wallet.network")}
        </Cell>
        <Cell
          className="static-cell"
          after={
            <span className={`status-badge status-${refill.status}`} data-testid="refill-status">
              {t(`refillStatus.${refill.status}`, { ns: "enums" })}
            </span>
          }
        >
          {t("wallet.status")}
        </Cell>
        <Cell className="static-cell" after={format.dateTime(refill.createdAt)}>
          {t("wallet.created")}
        </Cell>
        {refill.processedAt ? (
          <Cell className="static-cell" after={format.dateTime(refill.processedAt)}>
            {t("wallet.processed")}
          </Cell>
        ) : null}
      </Section>
      {waiting ? (
        <form onSubmit={submitHash} noValidate>
          <Section>
            <TextField
              label={t("wallet.txHash")}
              placeholder={t("form.txHashPlaceholder")}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              {...form.field("txHash")}
              // The contract's rule or the server's refusal, in the refill's own words.
              error={form.errors.txHash ? t("txHashInvalid") : null}
              onValueChange={(value) => {
                form.set("txHash", value);
                setFormError(null);
                setSaved(false);
              }}
            />
          </Section>
          <FormErrorBanner error={formError} success={saved ? t("wallet.txHashSaved") : null} />
          <div className="money-dialog-actions">
            <Button type="submit" size="l" stretched loading={save.isPending} data-testid="save-tx-hash">
              {t("wallet.saveTxHash")}
            </Button>
            <Button size="l" stretched mode="plain" onClick={onClose}>
              {t("wallet.done")}
            </Button>
          </div>
        </form>
      ) : (
        <div className="money-dialog-actions">
          {refill.txHash ? (
            <Cell className="static-cell" subtitle={t("wallet.txHash")} multiline>
              <CopyableValue value={refill.txHash} testId="refill-tx-hash" />
            </Cell>
          ) : null}
          <Button size="l" stretched onClick={onClose}>
            {t("wallet.done")}
          </Button>
        </div>
      )}
    </div>
  );
}
