import { Snackbar } from "@telegram-apps/telegram-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Alert, dismissAlert } from "@/lib/alerts";

function AlertText({ alert }: { alert: Alert }) {
  const { t } = useTranslation(alert.text.ns);
  const { text } = alert;
  switch (text.ns) {
    case "errors":
      return <>{t(text.key, { ns: "errors", ...text.params })}</>;
    case "success":
      return <>{t(text.key, { ns: "success" })}</>;
    case "common":
      return <>{t(text.key, { ns: "common", ...text.params })}</>;
    case "recovery":
      return <>{t(text.key, { ns: "recovery", ...text.params })}</>;
    case "withdrawal":
      return <>{t(text.key, { ns: "withdrawal", ...text.params })}</>;
  }
}

const TONE_MARK: Record<Alert["tone"], string> = { error: "!", success: "✓", info: "i" };

/** How long the alert takes to leave (telegram-ui's own closing transition lasts as long). */
const LEAVE_MS = 320;
/**
 * Longer than any alert stays: telegram-ui's Snackbar starts its own close timer and never clears it on
 * unmount, so a Snackbar gone with its screen (or a test's page) would still run its close later. The alert's
 * own timer below closes it and is cleared with it.
 */
const NEVER_MS = 2 ** 31 - 1;

/** One alert as telegram-ui's Snackbar; it leaves after the alert's duration. */
export function AlertSnackbar({ alert }: { alert: Alert }) {
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    if (!leaving) {
      const timer = setTimeout(() => setLeaving(true), alert.duration);
      return () => clearTimeout(timer);
    }
    const timer = setTimeout(() => dismissAlert(alert.id), LEAVE_MS);
    return () => clearTimeout(timer);
  }, [leaving, alert.duration, alert.id]);
  return (
    <Snackbar
      className={`alert alert-${alert.tone}`}
      role={alert.tone === "error" ? "alert" : "status"}
      duration={NEVER_MS}
      style={
        leaving
          ? { opacity: 0, transform: "translateY(100%)", transition: `opacity ${LEAVE_MS}ms, transform ${LEAVE_MS}ms` }
          : undefined
      }
      before={
        <span className="alert-mark" aria-hidden="true">
          {TONE_MARK[alert.tone]}
        </span>
      }
      onClose={() => dismissAlert(alert.id)}
    >
      <AlertText alert={alert} />
    </Snackbar>
  );
}
