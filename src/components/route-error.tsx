import { useQueryErrorResetBoundary } from "@tanstack/react-query";
import { Button, Placeholder } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from "react-router";
import { isApiError } from "@/lib/api-client";
import { Page } from "./page";

/** What went wrong, in the user's words: the connection, the reply, or the server's own message. */
function useErrorDetail(error: unknown): string {
  const { t } = useTranslation(["common", "errors"]);
  if (isApiError(error)) {
    if (error.kind === "network") return t("apiError.network");
    if (error.kind === "timeout") return t("apiError.timeout");
    if (error.kind === "parse") return t("apiError.parse");
    if (error.code) return t(error.code, { ns: "errors", ...error.params });
  }
  return t("errorBoundary.text");
}

/** The route-level error boundary: a friendly, localized message and a way to try again. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation(["common", "errors"]);
  const navigate = useNavigate();
  const location = useLocation();
  const { reset } = useQueryErrorResetBoundary();
  const detail = useErrorDetail(error);

  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Page screen="not-found" title={t("notFound.title")}>
        <Placeholder
          header={t("notFound.title")}
          description={t("notFound.text")}
          action={
            <Button size="l" onClick={() => navigate("/", { replace: true })}>
              {t("notFound.action")}
            </Button>
          }
        />
      </Page>
    );
  }

  const retry = () => {
    reset();
    // A new navigation to the same place clears the boundary and renders the screen again.
    navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true });
  };

  return (
    <Page screen="error" title={t("errorBoundary.title")} role="alert">
      <Placeholder
        header={t("errorBoundary.title")}
        description={detail}
        action={
          <Button size="l" onClick={retry}>
            {t("retry")}
          </Button>
        }
      />
    </Page>
  );
}
