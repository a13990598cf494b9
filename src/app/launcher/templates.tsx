// Run by the build only (`build/launch-preload.ts`, through Vite's module loader), never shipped: the markup the
// launcher paints, rendered with react-dom/server from the app's own components, so that what shows before the
// app's code is their markup.
import type { OverviewReply } from "@contract";
import type { User } from "@contract/user";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { AppRoot } from "@telegram-apps/telegram-ui";
import { createInstance } from "i18next";
import { createStore, Provider } from "jotai";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { CabinetLayout } from "@/app/layouts/cabinet-layout";
import { CabinetRoute } from "@/app/routes/cabinet";
import { BrandHeader } from "@/components/brand-header";
import { paths } from "@/config/paths";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { MemoryRouter } from "@/lib/router";
import { setTokenStore, signInAtom } from "@/lib/session";

/** Texts by namespace (`locales/<language>/<namespace>.json`). */
export type Texts = Record<string, Record<string, unknown>>;

/** What the launcher writes in place of the investor's name in the painted cabinet's welcome. */
const LOGIN_MARK = "{{login}}";

/**
 * `children` in `language` (Russian, the fallback, from `fallback`), in telegram-ui's root of `platform`'s light look,
 * as a block nothing takes for the app's: hidden from screen readers and inert, named `testId`, the test ids inside
 * it marked `-painted`, no element ids and no screen's name.
 */
function render(
  language: string,
  texts: Texts,
  fallback: Texts,
  platform: "base" | "ios",
  testId: string,
  children: ReactNode,
) {
  const i18n = createInstance();
  void i18n.init({
    lng: language,
    fallbackLng: "ru",
    ns: Object.keys(texts),
    defaultNS: "common",
    resources: { [language]: texts, ru: fallback },
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  const markup = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <AppRoot
        platform={platform}
        appearance="light"
        className="app-root"
        aria-hidden="true"
        inert
        data-appearance="light"
        data-platform={platform}
        data-testid={testId}
      >
        {children}
      </AppRoot>
    </I18nextProvider>,
  );
  // React writes each attribute as ` name="value"`.
  return markup
    .replace(/ data-testid="([^"]+)"/g, (attribute, name: string) =>
      name === testId ? attribute : ` data-testid="${name}-painted"`,
    )
    .replace(/ (?:id|data-screen)="[^"]*"/g, "");
}

/**
 * The login's first render down to its brand header (`PublicLayout`, `LoginRoute`'s `Page`, `BrandHeader`), in the
 * light look: the launcher adds the dark look's class when the device is dark.
 */
export function loginTemplate(language: string, texts: Texts, fallback: Texts): string {
  return render(
    language,
    texts,
    fallback,
    "base",
    "painted-login",
    <div className="public-layout">
      <div className="page public-page">
        <BrandHeader />
      </div>
    </div>,
  );
}

/**
 * The cabinet's first render on a phone as the app renders it once the overview has come (`CabinetLayout` with
 * `CabinetRoute` in it: the header, the headline with its figures, the skeletons of what comes after, the tab
 * bar), for an investor named LOGIN_MARK with nothing unread, its figures 0 USDT: the launcher writes the
 * investor's own (`src/app/launcher/paint.ts`). In the light look; the launcher adds the dark look's class.
 */
export function cabinetTemplate(language: string, texts: Texts, fallback: Texts, platform: "base" | "ios"): string {
  const queries = new QueryClient();
  const overview = {
    lines: [],
    current: { currency: "USDT", total: "0", balance: "0", onDeposit: "0", lines: {} },
  } as unknown as OverviewReply;
  queries.setQueryData(balanceQueries.overview().queryKey, overview);
  const store = createStore();
  const user = { login: LOGIN_MARK, fullName: null, notifications: { unread: 0 } } as unknown as User;
  // Signed in here only: nothing is kept (the token store of the build keeps nothing).
  setTokenStore({ kind: () => "build", read: async () => null, write: async () => undefined });
  store.set(signInAtom, { refreshToken: "painted", user });
  return render(
    language,
    texts,
    fallback,
    platform,
    "painted-cabinet",
    <Provider store={store}>
      <QueryClientProvider client={queries}>
        <MemoryRouter initialEntries={[paths.cabinet]}>
          <CabinetLayout>
            <CabinetRoute />
          </CabinetLayout>
        </MemoryRouter>
      </QueryClientProvider>
    </Provider>,
  );
}
