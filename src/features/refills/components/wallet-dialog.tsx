import { type Refill, RefillUpdateBody } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Button, Cell, Section } from "@telegram-apps/telegram-ui";
import { QRCodeSVG } from "qrcode.react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyableValue } from "@/components/details-sheet";
import { FormErrorBanner } from "@/components/form/form-footer";
import { Sheet } from "@/components/sheet";
import { serverFieldErrors, validationError } from "@/lib/form/field-errors";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { codeOf } from "@/lib/form/rules";
import { useForm } from "@/lib/form/use-form";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { useCopied } from "@/lib/use-copied";
import { haptics } from "@/tma/hooks";
import { refillMutations } from "../api/refill-queries";
import { TxHashField } from "./tx-hash-field";

/** The contract's rule of the hash (`PATCH /funds/refills/:id`). */
function hashErrors({ txHash }: { txHash: string }) {
  const code = codeOf(RefillUpdateBody.shape.txHash, txHash);
  return code ? { txHash: validationError(code) } : {};
}

/**
 * A refill's sheet (docs/decisions.md#d6-refills), one per state: awaiting payment, it says where to pay (address,
 * QR code, copy), how much and on which network, and takes the transaction hash; credited, it says what reached
 * the balance; rejected, that nothing did and what to do. Only a refill awaiting payment shows the address to pay
 * to: a credited or rejected one never asks to be paid again.
 */
export function WalletDialog({ refill, onClose }: { refill: Refill | null; onClose(): void }) {
  const { t } = useTranslation("refill");
  if (!refill) return null;
  return (
    <Sheet
      onClose={onClose}
      data-testid="wallet-dialog"
      data-state={refill.status}
      aria-label={t(`sheet.${refill.status}.title`)}
    >
      {refill.status === "waiting" ? (
        <WalletDialogBody key={refill.id} initial={refill} onClose={onClose} />
      ) : (
        <SettledRefill refill={refill} onClose={onClose} />
      )}
    </Sheet>
  );
}

/** A credited or rejected refill: what happened, and its details; no address, no QR code, nothing to pay. */
function SettledRefill({ refill, onClose }: { refill: Refill; onClose(): void }) {
  const { t } = useTranslation(["refill", "enums"]);
  const format = useMoneyFormat();
  const requested = format.amount(refill.amountRequested, refill.currency, { exact: true });
  const credited =
    refill.amountCredited !== null ? format.amount(refill.amountCredited, refill.currency, { exact: true }) : null;
  const status = refill.status === "replenished" ? "replenished" : "rejected";
  return (
    <div className="money-dialog" data-testid="refill-settled">
      <h2 className="money-dialog-title">{t(`sheet.${status}.title`)}</h2>
      <p className="money-dialog-text" data-testid="refill-outcome">
        {status === "replenished"
          ? t("sheet.replenished.text", { amount: credited ?? requested })
          : t("sheet.rejected.text", { amount: requested })}
      </p>
      <Section>
        <RefillDetails refill={refill} />
      </Section>
      <div className="money-dialog-actions">
        {refill.txHash ? (
          <Cell className="static-cell" subtitle={t("wallet.txHash")} multiline>
            <CopyableValue value={refill.txHash} testId="refill-tx-hash" />
          </Cell>
        ) : null}
        <Button size="l" stretched onClick={onClose} data-testid="refill-done">
          {t("wallet.done")}
        </Button>
      </div>
    </div>
  );
}

/** The refill's figures and dates, as every state's sheet lists them. */
function RefillDetails({ refill }: { refill: Refill }) {
  const { t } = useTranslation(["refill", "enums"]);
  const format = useMoneyFormat();
  const requested = format.amount(refill.amountRequested, refill.currency, { exact: true });
  return (
    <>
      <Cell
        className="static-cell"
        after={
          <span data-testid="refill-amount" {...amountAttributes(refill.amountRequested, refill.currency)}>
            {requested}
          </span>
        }
      >
        {refill.status === "waiting" ? t("wallet.amount") : t("wallet.requested")}
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
    </>
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

  // Credited or rejected while the sheet was open (the hash's reply says so): nothing to pay any more.
  if (!waiting) return <SettledRefill refill={refill} onClose={onClose} />;
  const requested = format.amount(refill.amountRequested, refill.currency, { exact: true });
  return (
    <div className="money-dialog">
      <h2 className="money-dialog-title">{t("sheet.waiting.title")}</h2>
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
        <RefillDetails refill={refill} />
      </Section>
      <form onSubmit={submitHash} noValidate>
        <Section>
          <TxHashField
            label={t("wallet.txHash")}
            {...form.field("txHash")}
            invalid={Boolean(form.errors.txHash)}
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
    </div>
  );
}
