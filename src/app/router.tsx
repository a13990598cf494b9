/**
 * The routes. Every screen is a lazy route module (its own chunk); guards and the public frame are
 * tiny and load with the entry, the cabinet frame loads with the first cabinet screen.
 */
import { createBrowserRouter, createMemoryRouter, type RouteObject } from "react-router";
import { RouteErrorBoundary } from "@/components/route-error-boundary";
import { SpinnerScreen } from "@/components/spinner-screen";
import { paths } from "@/config/paths";
import { RedirectSignedIn, RequireSession } from "./guards";
import { PublicLayout, RootLayout } from "./layouts/root-layout";

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorBoundary />,
    HydrateFallback: SpinnerScreen,
    children: [
      {
        element: <PublicLayout />,
        children: [
          {
            element: <RedirectSignedIn />,
            children: [
              { path: paths.login, lazy: () => import("./routes/login").then((m) => ({ Component: m.LoginRoute })) },
              {
                path: paths.register,
                lazy: () => import("./routes/register").then((m) => ({ Component: m.RegisterRoute })),
              },
              {
                path: paths.forgotPassword,
                lazy: () => import("./routes/forgot-password").then((m) => ({ Component: m.ForgotPasswordRoute })),
              },
            ],
          },
          {
            path: paths.phoneVerification,
            lazy: () => import("./routes/phone-verification").then((m) => ({ Component: m.PhoneVerificationRoute })),
          },
        ],
      },
      {
        element: <RequireSession />,
        children: [
          {
            lazy: () => import("./layouts/cabinet-layout").then((m) => ({ Component: m.CabinetLayout })),
            children: [
              {
                errorElement: <RouteErrorBoundary />,
                children: [
                  { index: true, lazy: () => import("./routes/cabinet").then((m) => ({ Component: m.CabinetRoute })) },
                  {
                    path: paths.refill,
                    lazy: () => import("./routes/refill").then((m) => ({ Component: m.RefillRoute })),
                  },
                  {
                    path: paths.deposits,
                    lazy: () => import("./routes/deposits").then((m) => ({ Component: m.DepositsRoute })),
                  },
                  {
                    path: paths.partners,
                    lazy: () => import("./routes/partners").then((m) => ({ Component: m.PartnersRoute })),
                  },
                  {
                    path: paths.withdrawal,
                    lazy: () => import("./routes/withdrawal").then((m) => ({ Component: m.WithdrawalRoute })),
                  },
                  {
                    path: paths.operations,
                    lazy: () => import("./routes/operations").then((m) => ({ Component: m.OperationsRoute })),
                  },
                  {
                    path: paths.settings,
                    lazy: () => import("./routes/settings").then((m) => ({ Component: m.SettingsRoute })),
                  },
                  { path: paths.news, lazy: () => import("./routes/news").then((m) => ({ Component: m.NewsRoute })) },
                  {
                    path: paths.newsItem,
                    lazy: () => import("./routes/news-item").then((m) => ({ Component: m.NewsItemRoute })),
                  },
                  { path: paths.more, lazy: () => import("./routes/more").then((m) => ({ Component: m.MoreRoute })) },
                ],
              },
            ],
          },
        ],
      },
      { path: "*", lazy: () => import("./routes/not-found").then((m) => ({ Component: m.NotFoundRoute })) },
    ],
  },
];

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createAppRouter(): AppRouter {
  return createBrowserRouter(routes);
}

/** For tests: the same routes in memory, starting at `initialPath`. */
export function createTestRouter(initialPath = "/"): AppRouter {
  return createMemoryRouter(routes, { initialEntries: [initialPath] });
}
