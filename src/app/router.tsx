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

/** Each screen's code; `preloadScreens` starts the launch's screens from the entry, beside everything else. */
const load = {
  login: () => import("./routes/login"),
  register: () => import("./routes/register"),
  forgotPassword: () => import("./routes/forgot-password"),
  phoneVerification: () => import("./routes/phone-verification"),
  terms: () => import("./routes/terms"),
  // The cabinet's frame loads with the first cabinet screen.
  cabinetLayout: () => import("./layouts/cabinet-layout"),
  cabinet: () => import("./routes/cabinet"),
  refill: () => import("./routes/refill"),
  deposits: () => import("./routes/deposits"),
  partners: () => import("./routes/partners"),
  withdrawal: () => import("./routes/withdrawal"),
  operations: () => import("./routes/operations"),
  settings: () => import("./routes/settings"),
  settingsScreen: () => import("./routes/settings-screen"),
  news: () => import("./routes/news"),
  newsItem: () => import("./routes/news-item"),
  more: () => import("./routes/more"),
  notifications: () => import("./routes/notifications"),
  notFound: () => import("./routes/not-found"),
};
type ScreenName = keyof typeof load;

const LoginRoute = lazyScreen(() => load.login().then((m) => ({ default: m.LoginRoute })));
const RegisterRoute = lazyScreen(() => load.register().then((m) => ({ default: m.RegisterRoute })));
const ForgotPasswordRoute = lazyScreen(() => load.forgotPassword().then((m) => ({ default: m.ForgotPasswordRoute })));
const PhoneVerificationRoute = lazyScreen(() =>
  load.phoneVerification().then((m) => ({ default: m.PhoneVerificationRoute })),
);
const TermsRoute = lazyScreen(() => load.terms().then((m) => ({ default: m.TermsRoute })));
const CabinetLayout = lazyScreen(() => load.cabinetLayout().then((m) => ({ default: m.CabinetLayout })));
const CabinetRoute = lazyScreen(() => load.cabinet().then((m) => ({ default: m.CabinetRoute })));
const RefillRoute = lazyScreen(() => load.refill().then((m) => ({ default: m.RefillRoute })));
const DepositsRoute = lazyScreen(() => load.deposits().then((m) => ({ default: m.DepositsRoute })));
const PartnersRoute = lazyScreen(() => load.partners().then((m) => ({ default: m.PartnersRoute })));
const WithdrawalRoute = lazyScreen(() => load.withdrawal().then((m) => ({ default: m.WithdrawalRoute })));
const OperationsRoute = lazyScreen(() => load.operations().then((m) => ({ default: m.OperationsRoute })));
const SettingsRoute = lazyScreen(() => load.settings().then((m) => ({ default: m.SettingsRoute })));
const SettingsScreenRoute = lazyScreen(() => load.settingsScreen().then((m) => ({ default: m.SettingsScreenRoute })));
const NewsRoute = lazyScreen(() => load.news().then((m) => ({ default: m.NewsRoute })));
const NewsItemRoute = lazyScreen(() => load.newsItem().then((m) => ({ default: m.NewsItemRoute })));
const MoreRoute = lazyScreen(() => load.more().then((m) => ({ default: m.MoreRoute })));
const NotificationsRoute = lazyScreen(() => load.notifications().then((m) => ({ default: m.NotificationsRoute })));
const NotFoundRoute = lazyScreen(() => load.notFound().then((m) => ({ default: m.NotFoundRoute })));

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
 * load, which tries again.
 */
export function preloadScreens(pathname: string, signedIn: boolean): void {
  const { screen, cabinet } = launchScreen(pathname, signedIn);
  const loads: Promise<unknown>[] = [load[screen]()];
  if (cabinet) loads.push(load.cabinetLayout());
  for (const loading of loads) loading.catch(() => undefined);
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
    <CabinetLayout>{screen}</CabinetLayout>
  </RequireSession>
);

export function AppRoutes() {
  return (
    <RootLayout>
      <Switch>
        <Route path={paths.login}>{signedOutOnly(<LoginRoute />)}</Route>
        <Route path={paths.register}>{signedOutOnly(<RegisterRoute />)}</Route>
        <Route path={paths.forgotPassword}>{signedOutOnly(<ForgotPasswordRoute />)}</Route>
        <Route path={paths.phoneVerification}>
          <PublicLayout>
            <RequirePhonePending>
              <PhoneVerificationRoute />
            </RequirePhonePending>
          </PublicLayout>
        </Route>
        <Route path={paths.terms}>
          <PublicLayout>
            <TermsRoute />
          </PublicLayout>
        </Route>
        <Route path={paths.cabinet}>{inCabinet(<CabinetRoute />)}</Route>
        <Route path={paths.refill}>{inCabinet(<RefillRoute />)}</Route>
        <Route path={paths.deposits}>{inCabinet(<DepositsRoute />)}</Route>
        <Route path={paths.partners}>{inCabinet(<PartnersRoute />)}</Route>
        <Route path={paths.withdrawal}>{inCabinet(<WithdrawalRoute />)}</Route>
        <Route path={paths.operations}>{inCabinet(<OperationsRoute />)}</Route>
        <Route path={paths.settings}>{inCabinet(<SettingsRoute />)}</Route>
        <Route path={paths.settingsScreen}>{inCabinet(<SettingsScreenRoute />)}</Route>
        <Route path={paths.news}>{inCabinet(<NewsRoute />)}</Route>
        <Route path={paths.newsItem}>{inCabinet(<NewsItemRoute />)}</Route>
        <Route path={paths.more}>{inCabinet(<MoreRoute />)}</Route>
        <Route path={paths.notifications}>{inCabinet(<NotificationsRoute />)}</Route>
        <Route>
          <NotFoundRoute />
        </Route>
      </Switch>
    </RootLayout>
  );
}
