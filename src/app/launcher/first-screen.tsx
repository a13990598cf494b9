// The first renders the launcher paints before the app's code has come (docs/architecture.md#how-a-launch-flows),
// from the app's own components, texts and formatter: the cabinet's first screen with the investor's own data,
// rendered by the server (`GET /app/first-screen`), and the login's brand header, which needs no data, rendered by
// the build into the page. Bundled by the build for Node (`dist/.server/first-screen.mjs`, build/launch-preload.ts);
// never part of the app's bundle.
import type { OverviewReply } from "@contract";
import type { User } from "@contract/user";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { isColorDark, toRGB } from "@telegram-apps/sdk-react";
import { AppRoot } from "@telegram-apps/telegram-ui";
import { createInstance, type i18n as I18n } from "i18next";
import { createStore, Provider } from "jotai";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { CabinetLayout } from "@/app/layouts/cabinet-layout";
import { CabinetRoute } from "@/app/routes/cabinet";
import { BrandHeader } from "@/components/brand-header";
import { paths } from "@/config/paths";
import { needsPhoneConfirmation } from "@/features/auth/model/phone-pending";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { MemoryRouter } from "@/lib/router";
import { setTokenStore, signInAtom } from "@/lib/session";
import { buttonFill } from "@/tma/button-fill";
import { uiPlatformOf } from "@/tma/launch";

/** Every language's texts by namespace (`locales/<language>/<namespace>.json`), the bot's aside. */
const FILES = import.meta.glob<Record<string, unknown>>(["../../../locales/*/*.json", "!../../../locales/*/bot.json"], {
  eager: true,
  import: "default",
});

export type Platform = "base" | "ios";
export type Appearance = "light" | "dark";

const translators = new Map<string, I18n>();

/** The app's texts in `language` (Russian, the fallback, filling a missing key), one instance per language. */
function translator(language: string): I18n {
  const kept = translators.get(language);
  if (kept) return kept;
  const resources: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const [file, texts] of Object.entries(FILES)) {
    const [, lng = "", namespace = ""] = /locales\/(\w+)\/(\w+)\.json$/.exec(file) ?? [];
    resources[lng] = { ...resources[lng], [namespace]: texts };
  }
  const i18n = createInstance();
  void i18n.init({
    lng: language,
    fallbackLng: "ru",
    ns: Object.keys(resources.ru ?? {}),
    defaultNS: "common",
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  translators.set(language, i18n);
  return i18n;
}

/** Inside Telegram: the client's platform and its theme's colours, as the app has them by its first render. */
interface TelegramLook {
  client: string;
  /** The theme's colours as the SDK binds them (`--tg-theme-*`) and the buttons' fill as the boot sets it. */
  colors: Record<string, string>;
  /** Dark when the theme's background is dark or missing (the SDK's `themeParams.isDark`). */
  dark: boolean;
}

/**
 * The look of `client`'s theme `theme` (`tgWebAppThemeParams`, JSON) as the app's boot takes it (`tma/boot.ts`): each
 * colour read by the SDK's own `toRGB`, the buttons' fill from them (`tma/button-fill.ts`). Null for a theme whose
 * colours the SDK would not read: then nothing is painted.
 */
function telegramLook(client: string, theme: string): TelegramLook | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(theme);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object") return null;
  const colors: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    try {
      colors[`--tg-theme-${key.replace(/_/g, "-")}`] = toRGB(String(value));
    } catch {
      return null;
    }
  }
  const fill = buttonFill(colors["--tg-theme-button-color"], colors["--tg-theme-button-text-color"]);
  if (fill) colors["--kassa-button-fill"] = fill;
  const background = colors["--tg-theme-bg-color"];
  return { client, colors, dark: !background || isColorDark(background) };
}

/**
 * `children` in `language`, in telegram-ui's root of `platform`'s look (inside Telegram the client's), as a block
 * nothing takes for the app's: hidden from screen readers and inert, named `testId`, the test ids inside it marked
 * `-painted`, no element ids and no screen's name.
 */
function render(
  language: string,
  platform: Platform,
  look: Appearance | TelegramLook,
  testId: string,
  children: ReactNode,
): string {
  const telegram = typeof look === "object" ? look : null;
  const appearance = telegram ? (telegram.dark ? "dark" : "light") : (look as Appearance);
  const markup = renderToStaticMarkup(
    <I18nextProvider i18n={translator(language)}>
      <AppRoot
        platform={platform}
        appearance={appearance}
        className="app-root"
        aria-hidden="true"
        inert
        data-appearance={appearance}
        data-platform={platform}
        data-telegram={telegram?.client}
        style={telegram?.colors}
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
 * The login's first render down to its brand header (`PublicLayout`, `LoginRoute`'s `Page`, `BrandHeader`), in
 * the device's look (the launcher picks it).
 */
export function loginTemplate(language: string, appearance: Appearance): string {
  return render(
    language,
    "base",
    appearance,
    "painted-login",
    <div className="public-layout">
      <div className="page public-page">
        <BrandHeader />
      </div>
    </div>,
  );
}

export interface CabinetScreen {
  language: string;
  /** telegram-ui's look: by default the client's inside Telegram (`uiPlatformOf`), else the base look. */
  platform?: Platform;
  appearance?: Appearance;
  /** Inside Telegram: the client's platform and its theme (`FirstScreenQuery`). */
  telegram?: string;
  theme?: string;
  /** The replies of `currentUser` and `overview`, as the app gets them. */
  user: User;
  overview: OverviewReply;
}

/**
 * The cabinet's first render on a phone as the app renders it once the overview has come (`CabinetLayout` with
 * `CabinetRoute` in it: the header, the headline with its figures, the skeletons of what comes after, the tab bar).
 * Null for an investor the app's guards send elsewhere (a phone waiting for its code), or inside Telegram for a theme
 * the SDK would not read.
 */
export function cabinetScreen(screen: CabinetScreen): string | null {
  const { language, telegram, theme, user, overview } = screen;
  const platform = screen.platform ?? uiPlatformOf(telegram);
  if (needsPhoneConfirmation(user)) return null;
  const look = telegram ? telegramLook(telegram, theme ?? "{}") : (screen.appearance ?? "light");
  if (!look) return null;
  const queries = new QueryClient();
  queries.setQueryData(balanceQueries.overview().queryKey, overview);
  const store = createStore();
  // Signed in here only: nothing is kept (this token store keeps nothing).
  setTokenStore({ kind: () => "build", read: async () => null, write: async () => undefined });
  store.set(signInAtom, { refreshToken: "painted", user });
  return render(
    language,
    platform,
    look,
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
