import { Snackbar } from "@telegram-apps/telegram-ui";
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
    case "auth":
      return <>{t(text.key, { ns: "auth", ...text.params })}</>;
    case "withdrawal":
      return <>{t(text.key, { ns: "withdrawal", ...text.params })}</>;
  }
}

const TONE_MARK: Record<Alert["tone"], string> = { error: "!", success: "✓", info: "i" };

/** One alert as telegram-ui's Snackbar; it closes itself after the alert's duration. */
export function AlertSnackbar({ alert }: { alert: Alert }) {
  return (
    <Snackbar
      className={`alert alert-${alert.tone}`}
      role={alert.tone === "error" ? "alert" : "status"}
      duration={alert.duration}
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
