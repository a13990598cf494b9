/**
 * The locked screen (docs/telegram.md, "The biometric lock"): with the lock on, a launch whose Face ID or
 * fingerprint check did not pass shows this instead of the app. "Try again" asks for the check again; "Sign in
 * another way" leads to the password (or a reset by code), never to a silent Telegram sign-in; after a refused
 * access, Telegram's biometric settings. Loaded only then, inside Telegram.
 */
import { Button, List } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { KassaMark } from "@/components/kassa-mark";
import { Page } from "@/components/page";
import { Placeholder } from "@/components/placeholder";
import type { LockState } from "@/tma/token-store";
import "./lock-screen.css";

export interface LockScreenProps {
  state: Extract<LockState, "refused" | "denied" | "unavailable" | "checking">;
  /** Asks for the check again; resolves once it has an answer. */
  onTryAgain(): Promise<void>;
  onAnotherWay(): void;
  onOpenSettings(): void;
}

export function LockScreen({ state, onTryAgain, onAnotherWay, onOpenSettings }: LockScreenProps) {
  const { t } = useTranslation();
  const [trying, setTrying] = useState(false);
  const why = state === "checking" ? "refused" : state;
  const tryAgain = async () => {
    setTrying(true);
    try {
      await onTryAgain();
    } finally {
      setTrying(false);
    }
  };
  return (
    <Page screen="locked" title={t("lock.title")} className="public-page lock-page">
      <List>
        <Placeholder
          header={t("lock.title")}
          description={t(`lock.${why}`)}
          action={
            <div className="lock-actions">
              {state === "denied" ? (
                <Button size="l" stretched onClick={onOpenSettings} data-testid="lock-open-settings">
                  {t("lock.openSettings")}
                </Button>
              ) : null}
              <Button
                size="l"
                stretched
                mode={state === "denied" ? "bezeled" : "filled"}
                loading={trying || state === "checking"}
                onClick={() => void tryAgain()}
                data-testid="lock-try-again"
              >
                {t("lock.tryAgain")}
              </Button>
              <Button size="l" stretched mode="plain" onClick={onAnotherWay} data-testid="lock-another-way">
                {t("lock.anotherWay")}
              </Button>
            </div>
          }
        >
          <KassaMark size={72} />
        </Placeholder>
      </List>
    </Page>
  );
}
