/**
 * The last way to copy inside Telegram (src/tma/clipboard.ts): the client refused both ways of copying,
 * so the text is shown selected, with a hint to copy it with the device's own Copy.
 */
import { Button } from "@telegram-apps/telegram-ui";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { dismissManualCopy, useManualCopyText } from "@/tma/manual-copy";
import { Sheet } from "./sheet";
import "./details-sheet.css";

export function ManualCopySheet() {
  const text = useManualCopyText();
  if (text === null) return null;
  return <ManualCopy key={text} text={text} />;
}

function ManualCopy({ text }: { text: string }) {
  const { t } = useTranslation(["money", "common"]);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    // Selected once the sheet is in: one "Copy" from the device's menu (or Ctrl+C, ⌘C) takes it.
    const timer = setTimeout(() => {
      field.current?.focus({ preventScroll: true });
      field.current?.select();
    }, 50);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Sheet onClose={dismissManualCopy} data-testid="manual-copy">
      <div className="money-dialog">
        <h2 className="money-dialog-title">{t("copyByHand.title")}</h2>
        <p className="money-dialog-text" id="manual-copy-hint">
          {t("copyByHand.hint")}
        </p>
        <textarea
          ref={field}
          className="manual-copy-text"
          readOnly
          value={text}
          rows={3}
          aria-describedby="manual-copy-hint"
          onFocus={(event) => event.currentTarget.select()}
          data-testid="manual-copy-text"
        />
        <div className="money-dialog-actions">
          <Button size="l" stretched mode="bezeled" onClick={dismissManualCopy} data-testid="manual-copy-close">
            {t("close", { ns: "common" })}
          </Button>
        </div>
      </div>
    </Sheet>
  );
}
