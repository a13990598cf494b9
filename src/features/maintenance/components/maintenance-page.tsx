import type { Language, LocalizedText } from "@contract";
import { Cell, List, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { MaintenanceIcon } from "@/components/icons";
import { Page } from "@/components/page";
import { Placeholder } from "@/components/placeholder";
import { toSupportedLanguage } from "@/config/i18n";
import { dateTimeFormat } from "@/lib/intl";
import { useBackButton } from "@/tma/hooks";

export interface MaintenancePageProps {
  /** The operator's note, in each language; null when there is none. */
  message: LocalizedText | null;
  /** When the work is expected to end (ISO 8601), if known. */
  until: string | null;
}

function formatUntil(until: string, language: Language): string | null {
  const date = new Date(until);
  if (Number.isNaN(date.getTime())) return null;
  return dateTimeFormat(language, { dateStyle: "long", timeStyle: "short" }).format(date);
}

/** Shown in place of the whole app while technical work is on. */
export function MaintenancePage({ message, until }: MaintenancePageProps) {
  const { t, i18n } = useTranslation("maintenance");
  const language = toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language) ?? "ru";
  const note = message?.[language]?.trim();
  const end = until ? formatUntil(until, language) : null;
  useBackButton(false, () => {});

  return (
    <Page screen="maintenance" title={t("title")} className="public-page">
      <Placeholder header={t("title")} description={t("text")}>
        <span className="placeholder-icon">
          <MaintenanceIcon size={56} />
        </span>
      </Placeholder>
      {note || end ? (
        <List>
          <Section header={note ? t("messageHeader") : undefined}>
            {note ? (
              <Cell multiline className="static-cell">
                {note}
              </Cell>
            ) : null}
            {end ? (
              <Cell multiline className="static-cell" data-testid="maintenance-until">
                {t("until", { time: end })}
              </Cell>
            ) : null}
          </Section>
        </List>
      ) : null}
    </Page>
  );
}
