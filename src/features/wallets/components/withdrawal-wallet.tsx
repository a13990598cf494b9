import { type CodeSentReply, type PaymentSystem, type Wallet, WalletsUpdateBody } from "@contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Skeleton } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeDestination } from "@/components/code-destination";
import { CodeStep } from "@/components/form/code-step";
import { type FieldError, TextField } from "@/components/form/text-field";
import { Sheet } from "@/components/sheet";
import { pushAlert } from "@/lib/alerts";
import { isApiError } from "@/lib/api-client";
import { startCodeCooldown } from "@/lib/code-cooldown";
import { validationError } from "@/lib/form/field-errors";
import { messageOfError } from "@/lib/form/messages";
import { codeOf } from "@/lib/form/rules";
import { useForm } from "@/lib/form/use-form";
import { haptics } from "@/tma/hooks";
import { useClosingConfirmation } from "@/tma/lifecycle";
import { walletAddressError, walletMutations, walletQueries } from "../api/wallet-queries";
import "../wallets.css";
import { ShortAddress } from "@/components/short-address";

/** The contract's rule of a wallet address (an empty one would remove the wallet: here it is required). */
const ADDRESS = WalletsUpdateBody.shape.wallets.def.element.shape.address;

function walletErrors({ wallet }: { wallet: string }) {
  const code = wallet.trim() === "" ? "required" : codeOf(ADDRESS, wallet);
  return code ? { wallet: validationError(code) } : {};
}

/**
 * The wallet a withdrawal in `system` goes to: the saved address, or an inline field to add one
 * (`PATCH /user-data/wallets/update`); a refused address is marked next to the field. A new or
 * changed address is stored only with the code the server sent for it: the kit's `CodeStep` asks
 * for it in a sheet (the field sits inside the withdrawal form, and forms do not nest).
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
  // The address waiting for its code, and where the code went.
  const [pending, setPending] = useState<{ wallet: Wallet; sent: CodeSentReply } | null>(null);
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
          <ShortAddress value={saved.address} className="wallet-address" testId="wallet-address" />
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

  const finish = () => {
    form.reset();
    setEditing(false);
    setPending(null);
  };

  const codeSheet = pending ? (
    <Sheet onClose={() => setPending(null)} data-testid="wallet-code">
      {/* The submit of the code's form must not reach the withdrawal form around this component. */}
      <div onSubmit={(event) => event.stopPropagation()}>
        <WalletCodeStep
          system={system}
          wallet={pending.wallet}
          sent={pending.sent}
          onResent={(sent) => setPending({ wallet: pending.wallet, sent })}
          onConfirmed={finish}
          onBack={() => setPending(null)}
        />
      </div>
    </Sheet>
  ) : null;

  const submit = () => {
    const value = address.trim();
    if (save.isPending) return;
    setRefusal(null);
    if (form.check().wallet) {
      haptics.notify("error");
      return;
    }
    const wallet = { paymentSystemId: system.id, address: value };
    save.mutate(wallet, {
      onSuccess: (reply) => {
        haptics.notify("success");
        if (reply.walletCode) {
          startCodeCooldown("withdrawal", walletSubject(wallet), reply.walletCode.resendAfterSeconds);
          setPending({ wallet, sent: reply.walletCode });
        } else finish();
      },
      onError: (error) => {
        haptics.notify("error");
        const code = isApiError(error) ? walletAddressError(error.fields) : undefined;
        if (code === "addressFormat" || code === "required") form.setServerErrors({ wallet: validationError(code) });
        else setRefusal(messageOfError(error));
      },
    });
  };

  return (
    <div className="wallet-editor">
      {codeSheet}
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

/** What the wait for a new wallet code is kept under: the payment system and the address. */
const walletSubject = (wallet: Wallet) => `wallet:${wallet.paymentSystemId}:${wallet.address}`;

/**
 * The code that stores a new or changed withdrawal address: the kit's `CodeStep`, saying which
 * address in which network it confirms and where the code went; a new code after the wait.
 */
function WalletCodeStep({
  system,
  wallet,
  sent,
  onResent,
  onConfirmed,
  onBack,
}: {
  system: PaymentSystem;
  wallet: Wallet;
  sent: CodeSentReply;
  onResent(sent: CodeSentReply): void;
  onConfirmed(): void;
  onBack(): void;
}) {
  const { t } = useTranslation("withdrawal");
  return (
    <CodeStep
      money
      purpose="withdrawal"
      subject={walletSubject(wallet)}
      className="money-form wallet-code-step"
      header={t("wallet.codeHeader")}
      submitText={t("wallet.codeSubmit")}
      confirm={walletMutations.confirm(wallet)}
      onConfirmed={() => {
        pushAlert({ tone: "success", replace: true, text: { ns: "withdrawal", key: "wallet.changed" } });
        onConfirmed();
      }}
      resend={walletMutations.resend(wallet)}
      onResent={onResent}
      intro={
        <>
          <p className="withdrawal-code-note" data-testid="wallet-code-note">
            {t("wallet.codeSent", { address: wallet.address, network: system.network })}
          </p>
          <CodeDestination sent={sent} />
        </>
      }
      actions={({ confirming }) => (
        <div className="form-actions">
          <Button type="button" mode="plain" size="m" stretched disabled={confirming} onClick={onBack}>
            {t("code.back")}
          </Button>
        </div>
      )}
    />
  );
}
