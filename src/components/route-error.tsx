import { useQueryErrorResetBoundary } from "@tanstack/react-query";
import { Button } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Placeholder } from "@/components/placeholder";
import { fallbackText } from "@/config/fallback-texts";
import { retryFailedTranslations } from "@/config/i18n";
import { isApiError } from "@/lib/api-client";
import { ChunkLoadError, retryFailedChunks } from "./lazy-screen";
import { Page } from "./page";

/** Some translation files of the screen could not be downloaded. */
export class TranslationsUnavailableError extends Error {
  override readonly name = "TranslationsUnavailableError";
}

/** A screen's code could not be downloaded (offline, or a new release replaced the files). */
function isChunkLoadFailure(error: unknown): boolean {
  return (
    error instanceof ChunkLoadError ||
    (error instanceof TypeError &&
      /dynamically imported module|module script failed|Failed to fetch|preload/i.test(String(error.message)))
  );
}

/** A screen's code or texts could not be downloaded: retried in the background, the screen then shows by itself. */
export function isDownloadFailure(error: unknown): boolean {
  return isChunkLoadFailure(error) || error instanceof TranslationsUnavailableError;
}

/**
 * What went wrong, in the user's words: the connection, the reply, or the server's own message. Its
 * texts come with the entry chunk (`fallback-texts.ts`) when the translations are not there.
 */
function useErrorDetail(error: unknown): string {
  const { t } = useTranslation("errors", { useSuspense: false });
  if (isApiError(error)) {
    if (error.kind === "network") return fallbackText("apiError.network");
    if (error.kind === "timeout") return fallbackText("apiError.timeout");
    if (error.kind === "parse") return fallbackText("apiError.parse");
    if (error.code) {
      const text = t(error.code, { defaultValue: "", ...error.params });
      if (text) return text;
    }
  }
  if (isDownloadFailure(error)) return fallbackText("loadFailed");
  return fallbackText("errorBoundary.text");
}

/**
 * The route area's error screen: a friendly, localized message and a way to try again. It ships in
 * the entry chunk, so it shows even when the failed download was a screen's code or its texts.
 */
export function RouteError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  // Re-render when translations arrive (no suspending: this screen must show without them).
  const { ready } = useTranslation("common", { useSuspense: false });
  const { reset } = useQueryErrorResetBoundary();
  const detail = useErrorDetail(error);
  const [retrying, setRetrying] = useState(false);

  const retry = async () => {
    setRetrying(true);
    try {
      if (error instanceof TranslationsUnavailableError) await retryFailedTranslations();
      if (isChunkLoadFailure(error)) retryFailedChunks();
      reset();
      onRetry();
    } finally {
      setRetrying(false);
    }
  };

  const title = fallbackText("errorBoundary.title");
  const content = (
    <Placeholder
      header={title}
      description={detail}
      action={
        <Button size="l" loading={retrying} onClick={() => void retry()} data-testid="error-retry">
          {fallbackText("retry")}
        </Button>
      }
    />
  );
  // The screen frame waits for the common texts (it suspends); before they come (a cold start whose texts
  // failed) the message shows on its own.
  if (!ready)
    return (
      <div data-screen="error" className="page" role="alert">
        {content}
      </div>
    );
  return (
    <Page screen="error" title={title} role="alert">
      {content}
    </Page>
  );
}
