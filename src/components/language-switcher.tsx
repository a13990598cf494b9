import type { Language } from "@contract";
import { Section, SegmentedControl } from "@telegram-apps/telegram-ui";
import type { KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { SUPPORTED_LANGUAGES, setLanguage, toSupportedLanguage } from "@/config/i18n";
import { haptics } from "@/tma/hooks";

/** The keys that move the choice (WAI-ARIA radio group): the step each takes, or where it lands. */
const STEPS: Record<string, number | "first" | "last"> = {
  ArrowRight: 1,
  ArrowDown: 1,
  ArrowLeft: -1,
  ArrowUp: -1,
  Home: "first",
  End: "last",
};

/**
 * The four interface languages, each named in itself; the choice is saved. A radio group (WAI-ARIA): one Tab
 * stop — the chosen language — and the arrow keys (Home, End) move the choice, as in any group of radio
 * buttons. Plain `type="button"` buttons: the switcher sits inside forms (registration), where a tap must not
 * submit the form.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language);
  const choose = (language: Language) => {
    if (language === current) return;
    haptics.selection();
    void setLanguage(language, i18n);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const step = STEPS[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const count = SUPPORTED_LANGUAGES.length;
    const at = current ? SUPPORTED_LANGUAGES.indexOf(current) : -1;
    const next = step === "first" ? 0 : step === "last" ? count - 1 : (at + step + count) % count;
    event.currentTarget.querySelectorAll<HTMLButtonElement>("[role='radio']")[next]?.focus();
    choose(SUPPORTED_LANGUAGES[next] as Language);
  };
  return (
    <div className="language-switcher">
      <SegmentedControl role="radiogroup" aria-label={t("language")} onKeyDown={onKeyDown}>
        {SUPPORTED_LANGUAGES.map((language) => (
          <SegmentedControl.Item
            key={language}
            type="button"
            role="radio"
            selected={language === current}
            aria-checked={language === current}
            tabIndex={language === (current ?? SUPPORTED_LANGUAGES[0]) ? 0 : -1}
            className="language-option"
            lang={language}
            onClick={() => choose(language)}
          >
            {t(`languages.${language}`)}
          </SegmentedControl.Item>
        ))}
      </SegmentedControl>
    </div>
  );
}

/** A section of its own with the language switcher, under `header`. */
export function LanguageSection({ header }: { header: string }) {
  return (
    <Section header={header}>
      <div className="section-padding">
        <LanguageSwitcher />
      </div>
    </Section>
  );
}
