/**
 * The routes, matched by wouter (`src/lib/router.tsx`; docs/decisions.md#the-router). Every screen is a
 * `React.lazy` chunk; each route renders its screen inside its guard and its layout, the same ones at the same
 * place in the tree for every screen of an area, so moving between two of them keeps the frame and replaces only
 * the screen. Each route area has its own error boundary (in the layouts).
 */

import type { ReactNode } from "react";
import { lazyScreen } from "@/components/lazy-screen";
import { paths } from "@/config/paths";
import { Route, Switch } from "@/lib/router";
import { RedirectSignedIn, RequirePhonePending, RequireSession } from "./guards";
import { PublicLayout, RootLayout } from "./layouts/root-layout";

/**
 * Each screen's code, as a lazy component; `preloadScreens` starts the launch's screens from the entry, beside
 * everything else, and a screen whose code has come by its first render renders at once (`lazyScreen`).
 */
const screens = {
  login: lazyScreen(() => import("./routes/login").then((m) => ({ default: m.LoginRoute }))),
  register: lazyScreen(() => import("./routes/register").then((m) => ({ default: m.RegisterRoute }))),
  forgotPassword: lazyScreen(() =>
    import("./routes/forgot-password").then((m) => ({ default: m.ForgotPasswordRoute })),
  ),
  phoneVerification: lazyScreen(() =>
    import("./routes/phone-verification").then((m) => ({ default: m.PhoneVerificationRoute })),
  ),
  terms: lazyScreen(() => import("./routes/terms").then((m) => ({ default: m.TermsRoute }))),
  // The cabinet's frame loads with the first cabinet screen.
  cabinetLayout: lazyScreen(() => import("./layouts/cabinet-layout").then((m) => ({ default: m.CabinetLayout }))),
  cabinet: lazyScreen(() => import("./routes/cabinet").then((m) => ({ default: m.CabinetRoute }))),
  refill: lazyScreen(() => import("./routes/refill").then((m) => ({ default: m.RefillRoute }))),
  deposits: lazyScreen(() => import("./routes/deposits").then((m) => ({ default: m.DepositsRoute }))),
  partners: lazyScreen(() => import("./routes/partners").then((m) => ({ default: m.PartnersRoute }))),
  withdrawal: lazyScreen(() => import("./routes/withdrawal").then((m) => ({ default: m.WithdrawalRoute }))),
  operations: lazyScreen(() => import("./routes/operations").then((m) => ({ default: m.OperationsRoute }))),
  settings: lazyScreen(() => import("./routes/settings").then((m) => ({ default: m.SettingsRoute }))),
  settingsScreen: lazyScreen(() =>
    import("./routes/settings-screen").then((m) => ({ default: m.SettingsScreenRoute })),
  ),
  news: lazyScreen(() => import("./routes/news").then((m) => ({ default: m.NewsRoute }))),
  newsItem: lazyScreen(() => import("./routes/news-item").then((m) => ({ default: m.NewsItemRoute }))),
  more: lazyScreen(() => import("./routes/more").then((m) => ({ default: m.MoreRoute }))),
  notifications: lazyScreen(() => import("./routes/notifications").then((m) => ({ default: m.NotificationsRoute }))),
  notFound: lazyScreen(() => import("./routes/not-found").then((m) => ({ default: m.NotFoundRoute }))),
};
type ScreenName = keyof typeof screens;

/**
 * Screens by exact path; `/register/<inviter>`, `/terms/<doc>`, `/news/<id>` and `/settings/<screen>` by their
 * first segment.
 */
const PUBLIC_SCREENS: Record<string, ScreenName> = {
  [paths.login]: "login",
  "/register": "register",
  [paths.forgotPassword]: "forgotPassword",
  [paths.phoneVerification]: "phoneVerification",
  "/terms": "terms",
};
const CABINET_SCREENS: Record<string, ScreenName> = {
  [paths.cabinet]: "cabinet",
  [paths.refill]: "refill",
  [paths.deposits]: "deposits",
  [paths.partners]: "partners",
  [paths.withdrawal]: "withdrawal",
  [paths.operations]: "operations",
  [paths.settings]: "settings",
  [paths.news]: "news",
  [paths.more]: "more",
  [paths.notifications]: "notifications",
};
/** Cabinet screens below a first segment: `/news/<id>`, `/settings/<screen>`. */
const NESTED_CABINET_SCREENS: Record<string, ScreenName> = {
  "/news": "newsItem",
  [paths.settings]: "settingsScreen",
};
/** Entry screens a signed-in user is taken past, to the cabinet. */
const SIGNED_OUT_ONLY: readonly ScreenName[] = ["login", "register", "forgotPassword"];

/**
 * The screen a launch at `pathname` shows: a signed-in user on an entry screen goes on to the cabinet, a
 * signed-out one on a cabinet screen to the login (the guards' rules).
 */
export function launchScreen(pathname: string, signedIn: boolean): { screen: ScreenName; cabinet: boolean } {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const first = `/${path.split("/")[1] ?? ""}`;
  const nested = path !== first;
  const cabinetScreen = nested ? NESTED_CABINET_SCREENS[first] : CABINET_SCREENS[path];
  const publicScreen = nested
    ? first === "/register" || first === "/terms"
      ? PUBLIC_SCREENS[first]
      : undefined
    : PUBLIC_SCREENS[path];
  if (signedIn && (cabinetScreen || (publicScreen && SIGNED_OUT_ONLY.includes(publicScreen))))
    return { screen: cabinetScreen ?? "cabinet", cabinet: true };
  if (cabinetScreen) return { screen: "login", cabinet: false };
  return { screen: publicScreen ?? "notFound", cabinet: false };
}

/**
 * Starts downloading the code of the screen a launch shows (and the cabinet's frame), so it comes in one wave
 * beside the texts and the data instead of one lazy chunk after another. A failure is left to the screen's own
 * load, which tries again. Settles once every download has come or failed.
 */
export function preloadScreens(pathname: string, signedIn: boolean): Promise<unknown> {
  const { screen, cabinet } = launchScreen(pathname, signedIn);
  const loads: Promise<unknown>[] = [screens[screen].preload()];
  if (cabinet) loads.push(screens.cabinetLayout.preload());
  for (const loading of loads) loading.catch(() => undefined);
  return Promise.allSettled(loads);
}

/** An entry screen a signed-in user is taken past. */
const signedOutOnly = (screen: ReactNode) => (
  <PublicLayout>
    <RedirectSignedIn>{screen}</RedirectSignedIn>
  </PublicLayout>
);
/** A screen of the cabinet's frame, for a signed-in user. */
const inCabinet = (screen: ReactNode) => (
  <RequireSession>
    <screens.cabinetLayout>{screen}</screens.cabinetLayout>
  </RequireSession>
);

export function AppRoutes() {
  return (
    <RootLayout>
      <Switch>
        <Route path={paths.login}>{signedOutOnly(<screens.login />)}</Route>
        <Route path={paths.register}>{signedOutOnly(<screens.register />)}</Route>
        <Route path={paths.forgotPassword}>{signedOutOnly(<screens.forgotPassword />)}</Route>
        <Route path={paths.phoneVerification}>
          <PublicLayout>
            <RequirePhonePending>
              <screens.phoneVerification />
            </RequirePhonePending>
          </PublicLayout>
        </Route>
        <Route path={paths.terms}>
          <PublicLayout>
            <screens.terms />
          </PublicLayout>
        </Route>
        <Route path={paths.cabinet}>{inCabinet(<screens.cabinet />)}</Route>
        <Route path={paths.refill}>{inCabinet(<screens.refill />)}</Route>
        <Route path={paths.deposits}>{inCabinet(<screens.deposits />)}</Route>
        <Route path={paths.partners}>{inCabinet(<screens.partners />)}</Route>
        <Route path={paths.withdrawal}>{inCabinet(<screens.withdrawal />)}</Route>
        <Route path={paths.operations}>{inCabinet(<screens.operations />)}</Route>
        <Route path={paths.settings}>{inCabinet(<screens.settings />)}</Route>
        <Route path={paths.settingsScreen}>{inCabinet(<screens.settingsScreen />)}</Route>
        <Route path={paths.news}>{inCabinet(<screens.news />)}</Route>
        <Route path={paths.newsItem}>{inCabinet(<screens.newsItem />)}</Route>
        <Route path={paths.more}>{inCabinet(<screens.more />)}</Route>
        <Route path={paths.notifications}>{inCabinet(<screens.notifications />)}</Route>
        <Route>
          <screens.notFound />
        </Route>
      </Switch>
    </RootLayout>
  );
}
