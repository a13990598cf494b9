/**
 * Telegram sign-in on the login screen. Loaded only inside Telegram (where the SDK is downloaded
 * anyway), so the web's first screen does not carry it.
 */
import { Button, Spinner } from "@telegram-apps/telegram-ui";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BrandHeader } from "@/components/brand-header";
import { Placeholder } from "@/components/placeholder";
import type { FormError } from "@/lib/form/messages";
import { useTelegramSignIn } from "../hooks/use-telegram-sign-in";
import { PaperPlaneIcon } from "./open-in-telegram-cell";

export interface TelegramLoginProps {
  /** The `telegramAuthAvailable` flag; undefined while it loads. */
  available: boolean | undefined;
  /** The password sign-in, given the Telegram error to show and the button to try Telegram again. */
  renderPasswordSignIn(notice: FormError | null, telegramButton: ReactNode): ReactNode;
}

/**
 * With the flag on, signs in at once and shows only a spinner; the password form appears if that
 * fails (with the error and a button to try again) or after a deliberate sign-out. With the flag off,
 * the password form alone.
 */
export function TelegramLogin({ available, renderPasswordSignIn }: TelegramLoginProps) {
  const { t } = useTranslation("auth");
  const telegram = useTelegramSignIn(available);

  if (telegram.status === "checking" || telegram.status === "signing-in" || telegram.status === "signed-in") {
    return (
      <div aria-busy="true">
        <BrandHeader tagline={false} />
        <Placeholder className="telegram-signing-in" description={t("login.telegramSigningIn")}>
          <Spinner size="l" />
        </Placeholder>
      </div>
    );
  }

  // Stale init data: the same data again would be refused again; the notice says to reopen from the bot.
  const button =
    telegram.status === "offered" && !telegram.stale ? (
      <div className="form-actions">
        <Button
          type="button"
          mode="bezeled"
          size="l"
          stretched
          loading={telegram.pending}
          before={<PaperPlaneIcon />}
          onClick={telegram.start}
          data-testid="telegram-sign-in"
        >
          {t("login.telegramButton")}
        </Button>
      </div>
    ) : null;
  // Stale init data: say what to do — reopen the app from the bot, or use the password form below.
  const notice: FormError | null = telegram.locked
    ? { message: { ns: "auth", key: "login.lockedNotice" } }
    : telegram.stale && telegram.error
      ? { ...telegram.error, note: { text: t("login.telegramStale") } }
      : telegram.error;
  return <>{renderPasswordSignIn(notice, button)}</>;
}
