import { useQueryErrorResetBoundary } from "@tanstack/react-query";
import { Button, Placeholder } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
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
  if (isChunkLoadFailure(error)) return t("apiError.network");
  return t("errorBoundary.text");
}

/** A screen's code could not be downloaded (offline, or a new release replaced the files). */
function isChunkLoadFailure(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /dynamically imported module|module script failed|Failed to fetch/i.test(String(error.message))
  );
}

/** The route area's error screen: a friendly, localized message and a way to try again. */
export function RouteError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation(["common", "errors"]);
  const { reset } = useQueryErrorResetBoundary();
  const detail = useErrorDetail(error);

  const retry = () => {
    // React.lazy keeps a failed import; only a reload asks for the screen's code again.
    if (isChunkLoadFailure(error)) {
      window.location.reload();
      return;
    }
    reset();
    onRetry();
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
