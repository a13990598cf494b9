/**
 * The details of one item (an operation, a refill, a withdrawal, a deposit, a referral) in a bottom
 * sheet: a title, label/value pairs, long values (addresses, hashes) in full with a copy button.
 */

import { Button } from "@telegram-apps/telegram-ui";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useCopied } from "@/lib/use-copied";
import { haptics } from "@/tma/hooks";
import { Sheet } from "./sheet";
import "./details-sheet.css";

export function DetailsSheet({
  title,
  onClose,
  testId,
  action,
  children,
}: {
  title: string;
  onClose(): void;
  testId: string;
  /** What can be done with the item now (e.g. "Enter the code"), above Close. */
  action?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation("common");
  return (
    <Sheet onClose={onClose} data-testid={testId}>
      <div className="details-sheet">
        <h2 className="details-title">{title}</h2>
        {children}
        <div className="details-actions">
          {action}
          <Button size="l" stretched mode="bezeled" onClick={onClose} data-testid="details-close">
            {t("close")}
          </Button>
        </div>
      </div>
    </Sheet>
  );
}

/** The label/value pairs of a details sheet. */
export function DetailList({ children }: { children: ReactNode }) {
  return <dl className="details-list">{children}</dl>;
}

export function Detail({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="details-item">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** A long value shown in full (it wraps), with a button that copies it. */
export function CopyableValue({ value, testId }: { value: string; testId?: string }) {
  const { t } = useTranslation("money");
  const [copied, setCopied] = useCopied();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      haptics.notify("success");
      setCopied();
    } catch {
      haptics.notify("error");
    }
  };
  return (
    <span className="details-copyable">
      <span className="details-mono" data-testid={testId}>
        {value}
      </span>
      <Button size="s" mode="plain" type="button" onClick={() => void copy()} data-testid={testId && `${testId}-copy`}>
        {copied ? t("copied") : t("copy")}
      </Button>
    </span>
  );
}
