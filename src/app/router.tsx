/**
 * The routes, in react-router's declarative mode (`<Routes>`; the data router would add ~17 KB gzip to
 * the first screen). Every screen is a `React.lazy` chunk; guards are wrapper elements around an
 * `<Outlet>`, and each route area has its own error boundary (in the layouts).
 */
import { lazy } from "react";
import { Route, Routes } from "react-router";
import { paths } from "@/config/paths";
import { RedirectSignedIn, RequirePhonePending, RequireSession } from "./guards";
import { PublicLayout, RootLayout } from "./layouts/root-layout";

const LoginRoute = lazy(() => import("./routes/login").then((m) => ({ default: m.LoginRoute })));
const RegisterRoute = lazy(() => import("./routes/register").then((m) => ({ default: m.RegisterRoute })));
const ForgotPasswordRoute = lazy(() =>
  import("./routes/forgot-password").then((m) => ({ default: m.ForgotPasswordRoute })),
);
const PhoneVerificationRoute = lazy(() =>
  import("./routes/phone-verification").then((m) => ({ default: m.PhoneVerificationRoute })),
);
const TermsRoute = lazy(() => import("./routes/terms").then((m) => ({ default: m.TermsRoute })));
// The cabinet's frame loads with the first cabinet screen.
const CabinetLayout = lazy(() => import("./layouts/cabinet-layout").then((m) => ({ default: m.CabinetLayout })));
const CabinetRoute = lazy(() => import("./routes/cabinet").then((m) => ({ default: m.CabinetRoute })));
const RefillRoute = lazy(() => import("./routes/refill").then((m) => ({ default: m.RefillRoute })));
const DepositsRoute = lazy(() => import("./routes/deposits").then((m) => ({ default: m.DepositsRoute })));
const PartnersRoute = lazy(() => import("./routes/partners").then((m) => ({ default: m.PartnersRoute })));
const WithdrawalRoute = lazy(() => import("./routes/withdrawal").then((m) => ({ default: m.WithdrawalRoute })));
const OperationsRoute = lazy(() => import("./routes/operations").then((m) => ({ default: m.OperationsRoute })));
const SettingsRoute = lazy(() => import("./routes/settings").then((m) => ({ default: m.SettingsRoute })));
const NewsRoute = lazy(() => import("./routes/news").then((m) => ({ default: m.NewsRoute })));
const NewsItemRoute = lazy(() => import("./routes/news-item").then((m) => ({ default: m.NewsItemRoute })));
const MoreRoute = lazy(() => import("./routes/more").then((m) => ({ default: m.MoreRoute })));
const NotFoundRoute = lazy(() => import("./routes/not-found").then((m) => ({ default: m.NotFoundRoute })));

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
