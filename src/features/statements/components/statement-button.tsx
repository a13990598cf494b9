import { Button } from "@telegram-apps/telegram-ui";
import { Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { lazyScreen } from "@/components/lazy-screen";
import { type StatementDraft, thisMonth } from "../model/period";

const loadSheet = () => import("./statement-sheet");
const StatementSheet = lazyScreen(() => loadSheet().then((m) => ({ default: m.StatementSheet })));

/**
 * "Download statement" on the operations screen and its sheet. The period typed stays while the screen
 * does, so an error, or closing the sheet, loses nothing.
 */
export function StatementButton() {
  const { t } = useTranslation("operations");
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<StatementDraft>(() => thisMonth());
  return (
    <>
      <Button size="s" mode="bezeled" onClick={() => setOpen(true)} data-testid="statement-open">
        {t("statement.open")}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <StatementSheet draft={draft} onDraftChange={setDraft} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
