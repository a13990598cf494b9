import type { Language } from "@contract";
import { Cell, Radio, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { currentLanguage, SUPPORTED_LANGUAGES, setLanguage } from "@/config/i18n";
import { haptics } from "@/tma/hooks";

/**
 * The interface language as Telegram's Language screen: one cell per language, named in itself with its
 * name in the current language beneath; a tap switches at once (the choice is saved).
 */
export function LanguageList() {
  const { t, i18n } = useTranslation(["settings", "common"]);
  const current = currentLanguage(i18n);
  const choose = (language: Language) => {
    if (language === current) return;
    haptics.selection();
    void setLanguage(language, i18n);
  };
  return (
    <Section header={t("language.header")} data-section="language">
      <fieldset className="settings-channels" data-testid="language-list">
        <legend className="visually-hidden">{t("language.header")}</legend>
        {SUPPORTED_LANGUAGES.map((language) => (
          <Cell
            key={language}
            Component="label"
            before={
              <Radio
                name="language"
                value={language}
                checked={language === current}
                onChange={() => choose(language)}
                aria-label={t(`languages.${language}`, { ns: "common" })}
              />
            }
            subtitle={t(`language.names.${language}`)}
            data-language={language}
          >
            <span lang={language}>{t(`languages.${language}`, { ns: "common" })}</span>
          </Cell>
        ))}
      </fieldset>
    </Section>
  );
}
