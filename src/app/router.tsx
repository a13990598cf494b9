/**
 * The routes, in react-router's declarative mode (`<Routes>`; the data router would add ~17 KB gzip to
 * the first screen). Every screen is a `React.lazy` chunk; guards are wrapper elements around an
 * `<Outlet>`, and each route area has its own error boundary (in the layouts).
 */

import { Route, Routes } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { paths } from "@/config/paths";
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

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route element={<PublicLayout />}>
          <Route element={<RedirectSignedIn />}>
            <Route path={paths.login} element={<LoginRoute />} />
            <Route path={paths.register} element={<RegisterRoute />} />
            <Route path={paths.forgotPassword} element={<ForgotPasswordRoute />} />
          </Route>
          <Route element={<RequirePhonePending />}>
            <Route path={paths.phoneVerification} element={<PhoneVerificationRoute />} />
          </Route>
          <Route path={paths.terms} element={<TermsRoute />} />
        </Route>
        <Route element={<RequireSession />}>
          <Route element={<CabinetLayout />}>
            <Route index element={<CabinetRoute />} />
            <Route path={paths.refill} element={<RefillRoute />} />
            <Route path={paths.deposits} element={<DepositsRoute />} />
            <Route path={paths.partners} element={<PartnersRoute />} />
            <Route path={paths.withdrawal} element={<WithdrawalRoute />} />
            <Route path={paths.operations} element={<OperationsRoute />} />
            <Route path={paths.settings} element={<SettingsRoute />} />
            <Route path={paths.settingsScreen} element={<SettingsScreenRoute />} />
            <Route path={paths.news} element={<NewsRoute />} />
            <Route path={paths.newsItem} element={<NewsItemRoute />} />
            <Route path={paths.more} element={<MoreRoute />} />
            <Route path={paths.notifications} element={<NotificationsRoute />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
