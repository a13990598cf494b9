// Run by the build only (`build/launch-preload.ts`), never shipped: the markup the launcher paints, rendered with
// react-dom/server from the app's own components, so that what shows before the app's code is their markup.
import { AppRoot } from "@telegram-apps/telegram-ui";
import { createInstance } from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { BrandHeader } from "@/components/brand-header";

/**
 * The login's first render down to its brand header (`PublicLayout`, `LoginRoute`'s `Page`, `BrandHeader`), in
 * `language` with `texts` (the `common` namespace; Russian, the fallback, in `fallback`), in the light look: the
 * launcher adds the dark look's class when the device is dark.
 */
export function loginTemplate(
  language: string,
  texts: Record<string, unknown>,
  fallback: Record<string, unknown>,
): string {
  const i18n = createInstance();
  void i18n.init({
    lng: language,
    fallbackLng: "ru",
    ns: ["common"],
    defaultNS: "common",
    resources: { [language]: { common: texts }, ru: { common: fallback } },
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <AppRoot platform="base" appearance="light" className="app-root">
        <div className="public-layout">
          <div className="page public-page">
            <BrandHeader />
          </div>
        </div>
      </AppRoot>
    </I18nextProvider>,
  );
}
