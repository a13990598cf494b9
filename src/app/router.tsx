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

const LoginRoute = lazyScreen(() => import("./routes/login").then((m) => ({ default: m.LoginRoute })));
const RegisterRoute = lazyScreen(() => import("./routes/register").then((m) => ({ default: m.RegisterRoute })));
const ForgotPasswordRoute = lazyScreen(() =>
  import("./routes/forgot-password").then((m) => ({ default: m.ForgotPasswordRoute })),
);
const PhoneVerificationRoute = lazyScreen(() =>
  import("./routes/phone-verification").then((m) => ({ default: m.PhoneVerificationRoute })),
);
const TermsRoute = lazyScreen(() => import("./routes/terms").then((m) => ({ default: m.TermsRoute })));
// The cabinet's frame loads with the first cabinet screen.
const CabinetLayout = lazyScreen(() => import("./layouts/cabinet-layout").then((m) => ({ default: m.CabinetLayout })));
const CabinetRoute = lazyScreen(() => import("./routes/cabinet").then((m) => ({ default: m.CabinetRoute })));
const RefillRoute = lazyScreen(() => import("./routes/refill").then((m) => ({ default: m.RefillRoute })));
const DepositsRoute = lazyScreen(() => import("./routes/deposits").then((m) => ({ default: m.DepositsRoute })));
const PartnersRoute = lazyScreen(() => import("./routes/partners").then((m) => ({ default: m.PartnersRoute })));
const WithdrawalRoute = lazyScreen(() => import("./routes/withdrawal").then((m) => ({ default: m.WithdrawalRoute })));
const OperationsRoute = lazyScreen(() => import("./routes/operations").then((m) => ({ default: m.OperationsRoute })));
const SettingsRoute = lazyScreen(() => import("./routes/settings").then((m) => ({ default: m.SettingsRoute })));
const NewsRoute = lazyScreen(() => import("./routes/news").then((m) => ({ default: m.NewsRoute })));
const NewsItemRoute = lazyScreen(() => import("./routes/news-item").then((m) => ({ default: m.NewsItemRoute })));
const MoreRoute = lazyScreen(() => import("./routes/more").then((m) => ({ default: m.MoreRoute })));
const NotFoundRoute = lazyScreen(() => import("./routes/not-found").then((m) => ({ default: m.NotFoundRoute })));

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
            <Route path={paths.news} element={<NewsRoute />} />
            <Route path={paths.newsItem} element={<NewsItemRoute />} />
            <Route path={paths.more} element={<MoreRoute />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
