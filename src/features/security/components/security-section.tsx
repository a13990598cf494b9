import { CodeChannel, type SecuritySettings } from "@contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Cell, Radio, Section, Skeleton, Switch } from "@telegram-apps/telegram-ui";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormErrorBanner } from "@/components/form/form-footer";
import { Placeholder } from "@/components/placeholder";
import { SectionSaved } from "@/components/settings-field";
import { useApiErrorText } from "@/lib/error-text";
import { validationError } from "@/lib/form/field-errors";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { codeOf } from "@/lib/form/rules";
import { useForm } from "@/lib/form/use-form";
import { haptics } from "@/tma/hooks";
import { securityMutations, securityQueries } from "../api/security-queries";
import { BiometricLockCell } from "./biometric-lock-cell";

/** How verification codes reach the user; only channels the user has confirmed can be chosen. */
export function SecuritySection() {
  const { t } = useTranslation(["settings", "common"]);
  const errorText = useApiErrorText();
  const settings = useQuery(securityQueries.settings());

  return (
    <Section header={t("security.header")} footer={t("security.hint")} data-section="security">
      {settings.isPending ? (
        <Skeleton visible>
          <div className="skeleton-block" />
        </Skeleton>
      ) : settings.isError ? (
        <Placeholder description={errorText(settings.error)}>
          <Button size="s" onClick={() => void settings.refetch()}>
            {t("retry", { ns: "common" })}
          </Button>
        </Placeholder>
      ) : (
        <ChannelForm settings={settings.data} />
      )}
      {settings.data ? (
        <ChatNotificationsCell linked={settings.data.chatLinked} on={settings.data.chatNotifications} />
      ) : null}
      <BiometricLockCell />
    </Section>
  );
}

/** The channel choice: one of the contract's channels, and one the user has confirmed. */
function ChannelForm({ settings }: { settings: SecuritySettings }) {
  const { t } = useTranslation(["settings", "common"]);
  const queryClient = useQueryClient();
  const save = useMutation(securityMutations.setChannel());
  const form = useForm<{ codeChannel: CodeChannel }>({
    initial: { codeChannel: settings.codeChannel },
    validate: ({ codeChannel }) => {
      const code =
        codeOf(CodeChannel, codeChannel) ??
        (settings.channels.some((c) => c.channel === codeChannel && c.available) ? undefined : "required");
      return code ? { codeChannel: validationError(code) } : {};
    },
  });
  const [formError, setFormError] = useState<FormError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const selected = form.values.codeChannel;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending || form.check().codeChannel) return;
    save.mutate(selected, {
      onSuccess: (reply) => {
        haptics.notify("success");
        queryClient.setQueryData(securityQueries.settings().queryKey, reply);
        form.reset({ codeChannel: reply.codeChannel });
        setSaved(t("saved"));
      },
      onError: (error) => {
        haptics.notify("error");
        setFormError(formErrorOf(error));
      },
    });
  };

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <fieldset className="settings-channels">
        <legend className="visually-hidden">{t("security.header")}</legend>
        {settings.channels.map(({ channel, available }) => (
          <Cell
            key={channel}
            Component="label"
            disabled={!available}
            before={
              <Radio
                name="codeChannel"
                value={channel}
                aria-label={t(`security.channels.${channel}`)}
                checked={selected === channel}
                disabled={!available}
                onChange={() => {
                  form.set("codeChannel", channel);
                  setSaved(null);
                  setFormError(null);
                }}
              />
            }
            description={available ? undefined : t("security.unavailable")}
          >
            {t(`security.channels.${channel}`)}
          </Cell>
        ))}
      </fieldset>
      <FormErrorBanner error={formError} />
      <div className="form-actions">
        <Button
          type="submit"
          size="l"
          stretched
          loading={save.isPending}
          disabled={selected === settings.codeChannel || form.errors.codeChannel !== undefined}
          data-testid="submit-security"
        >
          {t("save")}
        </Button>
      </div>
      <SectionSaved text={saved} />
    </form>
  );
}

/**
 * Notifications in the Telegram chat (the bot): on or off at once. An account not linked to Telegram
 * has no chat to write to: the switch is off and says how to link it.
 */
function ChatNotificationsCell({ linked, on }: { linked: boolean; on: boolean }) {
  const { t } = useTranslation("settings");
  const queryClient = useQueryClient();
  const toggle = useMutation(securityMutations.setChatNotifications());
  const [error, setError] = useState<FormError | null>(null);
  const change = (next: boolean) => {
    setError(null);
    toggle.mutate(next, {
      onSuccess: (reply) => {
        haptics.notify("success");
        queryClient.setQueryData(securityQueries.settings().queryKey, reply);
      },
      onError: (failure) => {
        haptics.notify("error");
        setError(formErrorOf(failure));
      },
    });
  };
  return (
    <>
      <Cell
        Component="label"
        multiline
        disabled={!linked || toggle.isPending}
        description={linked ? t("security.chat.hint") : t("security.chat.unlinked")}
        after={
          <Switch
            name="chatNotifications"
            aria-label={t("security.chat.label")}
            checked={linked && on}
            disabled={!linked || toggle.isPending}
            onChange={(event) => change(event.currentTarget.checked)}
          />
        }
      >
        {t("security.chat.label")}
      </Cell>
      <FormErrorBanner error={error} />
    </>
  );
}
