import { Title } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import type { TermsDoc } from "@/config/paths";

/** The sections of each document, in order (their texts are in `locales/<lng>/terms.json`). */
const SECTIONS = {
  offer: ["subject", "account", "funds", "risks", "fees", "liability", "term", "changes"],
  agreement: ["use", "data", "telegram", "storage", "security", "rights", "changes"],
} as const satisfies Record<TermsDoc, readonly string[]>;

type SectionKey<D extends TermsDoc> = (typeof SECTIONS)[D][number];

/** One of the Terms (the public offer or the user agreement) in the current language. */
export function TermsDocument({ doc }: { doc: TermsDoc }) {
  const { t } = useTranslation("terms");
  const sections: readonly SectionKey<TermsDoc>[] = SECTIONS[doc];
  return (
    <article className="terms-document" aria-labelledby={`terms-${doc}-title`}>
      <Title level="2" weight="1" Component="h1" id={`terms-${doc}-title`} className="terms-title">
        {t(`${doc}.title`)}
      </Title>
      <p className="terms-updated">{t("updated")}</p>
      <p>{t(`${doc}.intro`)}</p>
      {sections.map((key) => (
        <section key={key}>
          <h2>{t(`${doc}.sections.${key}.title` as `offer.sections.subject.title`)}</h2>
          <p>{t(`${doc}.sections.${key}.text` as `offer.sections.subject.text`)}</p>
        </section>
      ))}
    </article>
  );
}
