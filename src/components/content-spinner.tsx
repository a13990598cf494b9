import { type ComponentType, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePlaceholder } from "@/tma/hooks";

type Spinner = ComponentType<{ size: "s" | "m" | "l" }>;

/** telegram-ui's Spinner once its code has come (`loadSpinner`). */
let loaded: Spinner | null = null;
let loading: Promise<void> | null = null;

/**
 * telegram-ui's Spinner, downloaded the first time a screen waits for its code: its six SVG variants (~3 KB gzip)
 * are not the cabinet's first screen's, which renders at once. A download that fails (offline) is asked for again
 * at the next showing, never kept as a failure: the screen's own download is what the route's fault says.
 */
function loadSpinner(): Promise<void> {
  loading ??= import("./telegram-ui-spinner").then(
    (module) => {
      loaded = module.default;
    },
    () => {
      loading = null;
    },
  );
  return loading;
}

/**
 * A screen's place while its code and texts load, one status region named "Loading…" (telegram-ui's spinner is a
 * status of its own: hidden inside it); a download that failed meanwhile is said at once (its class).
 */
export function ContentSpinner() {
  const { t } = useTranslation("common");
  usePlaceholder();
  const [Spinner, setSpinner] = useState<Spinner | null>(() => loaded);
  useEffect(() => {
    if (Spinner) return;
    let shown = true;
    void loadSpinner().then(() => {
      if (shown && loaded) setSpinner(() => loaded);
    });
    return () => {
      shown = false;
    };
  }, [Spinner]);
  return (
    <div className="spinner-screen" role="status" aria-live="polite" aria-label={t("loading")}>
      {Spinner ? (
        <div aria-hidden="true">
          <Spinner size="l" />
        </div>
      ) : null}
    </div>
  );
}
