import type { Language } from "@contract";
import { SegmentedControl } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { SUPPORTED_LANGUAGES, setLanguage, toSupportedLanguage } from "@/config/i18n";
import { haptics } from "@/tma/hooks";

/**
 * The four interface languages, each named in itself; the choice is saved. Plain `type="button"`
 * buttons: the switcher sits inside forms (registration), where a tap must not submit the form.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language);
  const choose = (language: Language) => {
    if (language === current) return;
    haptics.selection();
    void setLanguage(language, i18n);
  };
  return (
    <fieldset className="language-switcher">
      <legend className="visually-hidden">{t("language")}</legend>
      <SegmentedControl>
        {SUPPORTED_LANGUAGES.map((language) => (
          <SegmentedControl.Item
            key={language}
            type="button"
            selected={language === current}
            aria-selected={language === current}
            className="language-option"
            lang={language}
            onClick={() => choose(language)}
          >
            {t(`languages.${language}`)}
          </SegmentedControl.Item>
        ))}
      </SegmentedControl>
    </fieldset>
  );
}
