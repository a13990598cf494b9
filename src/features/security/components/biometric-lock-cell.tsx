/**
 * The biometric lock (Settings → Security), where the Telegram client offers biometrics: on, the kept
 * session's token lives in Telegram's biometric token store and opening the app asks for Face ID or a
 * fingerprint (src/tma/token-store.ts, `lockableTokenStore`). Clients without biometrics show nothing.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Cell, Switch } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { haptics, useTelegram } from "@/tma/hooks";

const LOCK_KEY = ["telegram", "biometric-lock"] as const;

export function BiometricLockCell() {
  const { t } = useTranslation(["settings", "common"]);
  const lock = useTelegram()?.biometricLock;
  const queryClient = useQueryClient();
  const state = useQuery({
    queryKey: LOCK_KEY,
    queryFn: async () => (await lock?.offered()) ?? null,
    enabled: Boolean(lock),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [pending, setPending] = useState(false);
  const [refused, setRefused] = useState(false);
  if (!lock || !state.data) return null;
  const { locked, type } = state.data;

  const change = async (on: boolean) => {
    setPending(true);
    setRefused(false);
    const done = await lock.setLocked(on).catch(() => false);
    setPending(false);
    haptics.notify(done ? "success" : "error");
    if (!done) setRefused(true);
    queryClient.setQueryData(LOCK_KEY, { type, locked: done ? on : locked });
  };

  const label = t(
    type === "face"
      ? "security.biometric.face"
      : type === "finger"
        ? "security.biometric.finger"
        : "security.biometric.any",
  );
  return (
    <>
      <Cell
        Component="label"
        multiline
        disabled={pending}
        description={t("security.biometric.hint")}
        after={
          <Switch
            name="biometricLock"
            aria-label={label}
            checked={locked}
            disabled={pending}
            onChange={(event) => void change(event.currentTarget.checked)}
            data-testid="biometric-lock"
          />
        }
      >
        {label}
      </Cell>
      {refused ? (
        <div className="form-error" role="alert" data-testid="biometric-lock-refused">
          <p>{t("security.biometric.refused")}</p>
          {/* Telegram asks for access once; a refusal is given back only in its settings for this bot. */}
          <Button
            size="s"
            mode="bezeled"
            onClick={() => lock.openSettings()}
            data-testid="biometric-lock-open-settings"
          >
            {t("common:lock.openSettings")}
          </Button>
        </div>
      ) : null}
    </>
  );
}
