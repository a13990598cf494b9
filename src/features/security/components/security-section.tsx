import type { CodeChannel, CodeSentReply, SecurityChannel, SecuritySettings, TelegramLinkReply } from "@contract";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Cell, Radio, Section, Switch } from "@telegram-apps/telegram-ui";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeDestination } from "@/components/code-destination";
import { CodeStep } from "@/components/form/code-step";
import { FormErrorBanner } from "@/components/form/form-footer";
import { QuerySection } from "@/components/query-section";
import { Sheet } from "@/components/sheet";
import { startCodeCooldown } from "@/lib/code-cooldown";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { haptics, useTelegram } from "@/tma/hooks";
import { useBackToFront } from "@/tma/lifecycle";
import { openTelegramLink } from "@/tma/links";
import { securityKeys, securityMutations, securityQueries } from "../api/security-queries";

/**
 * How a channel may be confirmed, where the app has a way: the links the screen composing this one gives.
 * In the cabinet a phone is confirmed already (an unconfirmed one is asked for before the cabinet opens).
 */
export interface ChannelConfirmLinks {
  /** No phone yet: where one is added (the profile; a new phone is confirmed by its code). */
  addPhone: ReactNode;
}

/** How a change of the security settings ends: the settings as the server now has them, or its refusal said. */
function settingsSaved(queryClient: QueryClient, setError: (error: FormError) => void) {
  return {
    onSuccess: (reply: SecuritySettings) => {
      haptics.notify("success");
      queryClient.setQueryData(securityQueries.settings().queryKey, reply);
    },
    onError: (failure: unknown) => {
      haptics.notify("error");
      setError(formErrorOf(failure));
    },
  };
}

/**
 * Where verification codes go, said as the server really does it: the channel codes reach now (the
 * chosen one, or the one the server falls back to, or none), then every channel with its address and
 * whether it is confirmed. A confirmed channel is chosen with a tap and saved at once; an unconfirmed
 * phone links to where it is confirmed.
 */
export function CodeChannelSection({ links }: { links: ChannelConfirmLinks }) {
  const settings = useQuery(securityQueries.settings());
  return (
    <QuerySection query={settings} empty="" isEmpty={() => false}>
      {(data) => <ChannelChoice settings={data} links={links} />}
    </QuerySection>
  );
}

/** The channel's name and, where it has one, its address: "E-mail a***@example.com". */
function useChannelText() {
  const { t } = useTranslation("settings");
  return (channel: CodeChannel, destination: string | undefined) =>
    destination
      ? t("security.channelAt", { channel: t(`security.channels.${channel}`), destination })
      : t(`security.channels.${channel}`);
}

/** One line on where codes go now, for the list of Settings and the screen's summary. */
export function useCodesGoToText() {
  const { t } = useTranslation("settings");
  const channelText = useChannelText();
  return (settings: SecuritySettings) =>
    settings.codesGoTo
      ? t("security.goesTo", { channel: channelText(settings.codesGoTo, settings.destination) })
      : t("security.nowhere");
}

function ChannelChoice({ settings, links }: { settings: SecuritySettings; links: ChannelConfirmLinks }) {
  const { t } = useTranslation("settings");
  const queryClient = useQueryClient();
  const save = useMutation(securityMutations.setChannel());
  const [error, setError] = useState<FormError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const channelText = useChannelText();
  const chosen = save.isPending && save.variables ? save.variables : settings.codeChannel;

  const choose = (channel: CodeChannel) => {
    if (save.isPending || channel === settings.codeChannel) return;
    setError(null);
    haptics.selection();
    save.mutate(channel, settingsSaved(queryClient, setError));
  };

  // The chosen channel cannot take codes and the server sends them elsewhere (or nowhere): said plainly.
  const detour = settings.codesGoTo !== settings.codeChannel;
  // A new account's codes go to the e-mail given at registration before it is confirmed: said too.
  const unconfirmedEmail =
    settings.codesGoTo === "email" && settings.channels.some((item) => item.channel === "email" && !item.available);
  const footer = detour ? detourText() : unconfirmedEmail ? t("security.unconfirmedEmail") : t("security.hint");
  return (
    <>
      <Section header={t("security.codesHeader")} footer={footer}>
        <Cell className="static-cell" multiline data-testid="codes-go-to" data-channel={settings.codesGoTo ?? "none"}>
          {settings.codesGoTo ? channelText(settings.codesGoTo, settings.destination) : t("security.nowhere")}
        </Cell>
      </Section>
      <Section header={t("security.channelsHeader")} data-section="security">
        <fieldset className="settings-channels" data-testid="code-channels">
          <legend className="visually-hidden">{t("security.channelsHeader")}</legend>
          {settings.channels.map((item) => (
            <Cell
              key={item.channel}
              Component="label"
              multiline
              disabled={!item.available}
              before={
                <Radio
                  name="codeChannel"
                  value={item.channel}
                  aria-label={t(`security.channels.${item.channel}`)}
                  checked={chosen === item.channel}
                  disabled={!item.available || save.isPending}
                  onChange={() => choose(item.channel)}
                />
              }
              subtitle={stateText(item)}
              data-channel={item.channel}
              data-confirmed={item.available}
            >
              {channelText(item.channel, item.destination)}
            </Cell>
          ))}
        </fieldset>
        <ConfirmHint
          settings={settings}
          links={links}
          onEmailConfirmed={() => setNotice(t("security.emailConfirmed"))}
        />
        <FormErrorBanner error={error} success={notice} />
      </Section>
    </>
  );

  function detourText(): string {
    const mine = t(`security.channels.${settings.codeChannel}`);
    return settings.codesGoTo
      ? t("security.detour", { chosen: mine, channel: t(`security.channels.${settings.codesGoTo}`) })
      : t("security.detourNowhere", { chosen: mine });
  }

  function stateText(item: SecurityChannel): string {
    if (item.channel === "telegram") return item.available ? t("security.linked") : t("security.notLinked");
    if (!item.destination) return t(item.channel === "sms" ? "security.noPhone" : "security.noEmail");
    return item.available ? t("security.confirmed") : t("security.unavailable");
  }
}

/** What the investor can do about channels that are not confirmed, where the app offers a way. */
function ConfirmHint({
  settings,
  links,
  onEmailConfirmed,
}: {
  settings: SecuritySettings;
  links: ChannelConfirmLinks;
  onEmailConfirmed(): void;
}) {
  const sms = settings.channels.find((c) => c.channel === "sms");
  const email = settings.channels.find((c) => c.channel === "email");
  const telegram = settings.channels.find((c) => c.channel === "telegram");
  const lines: ReactNode[] = [];
  if (sms && !sms.available) lines.push(<li key="sms">{links.addPhone}</li>);
  const confirmEmail =
    email && !email.available && email.destination ? (
      <EmailConfirm address={email.destination} onConfirmed={onEmailConfirmed} />
    ) : null;
  const linkTelegram = telegram && !telegram.available ? <TelegramLink /> : null;
  if (lines.length === 0 && !confirmEmail && !linkTelegram) return null;
  return (
    <>
      {linkTelegram}
      {confirmEmail}
      {lines.length > 0 ? (
        <ul className="settings-confirm-hints" data-testid="confirm-hints">
          {lines}
        </ul>
      ) : null}
    </>
  );
}

/**
 * The e-mail's confirmation: a code goes to the e-mail only (never another channel), and the kit's code
 * step takes it in a sheet; the e-mail is then confirmed and may be chosen.
 */
function EmailConfirm({ address, onConfirmed }: { address: string; onConfirmed(): void }) {
  const { t } = useTranslation("settings");
  const queryClient = useQueryClient();
  const request = useMutation(securityMutations.requestEmailCode());
  const [sent, setSent] = useState<CodeSentReply | null>(null);
  const [error, setError] = useState<FormError | null>(null);
  const start = () => {
    if (request.isPending) return;
    setError(null);
    request.mutate(undefined, {
      onSuccess: (reply) => {
        startCodeCooldown(EMAIL_CODE_PURPOSE, EMAIL_SUBJECT, reply.resendAfterSeconds);
        setSent(reply);
      },
      onError: (failure) => {
        haptics.notify("error");
        setError(formErrorOf(failure));
      },
    });
  };
  return (
    <div className="settings-email-confirm">
      <Button
        type="button"
        size="s"
        mode="bezeled"
        loading={request.isPending}
        onClick={start}
        data-testid="confirm-email"
      >
        {t("security.confirmEmail")}
      </Button>
      <FormErrorBanner error={error} />
      {sent ? (
        <Sheet onClose={() => setSent(null)} data-testid="email-code">
          <CodeStep
            purpose={EMAIL_CODE_PURPOSE}
            subject={EMAIL_SUBJECT}
            className="settings-form"
            header={t("security.confirmEmail")}
            submitText={t("security.emailCodeSubmit")}
            confirm={securityMutations.confirmEmail()}
            onConfirmed={(reply) => {
              haptics.notify("success");
              queryClient.setQueryData(securityQueries.settings().queryKey, reply);
              setSent(null);
              onConfirmed();
            }}
            resend={securityMutations.requestEmailCode()}
            onResent={setSent}
            intro={<CodeDestination sent={sent ?? { channel: "email", destination: address }} signedIn />}
          />
        </Sheet>
      ) : null}
    </div>
  );
}

/**
 * Linking Telegram to a password account: the server makes a one-time link that opens the bot with
 * `/start link_<token>`; inside Telegram the client opens it at once, on the web it is a link to
 * tap (a tab opened after the reply would be blocked as a pop-up). When the investor comes back,
 * the settings are read again, so the channel shows as linked.
 */
function TelegramLink() {
  const { t } = useTranslation("settings");
  const telegram = useTelegram();
  const queryClient = useQueryClient();
  const create = useMutation(securityMutations.createTelegramLink());
  const [link, setLink] = useState<TelegramLinkReply | null>(null);
  const [error, setError] = useState<FormError | null>(null);
  useBackToFront(() => {
    if (link) void queryClient.invalidateQueries({ queryKey: securityKeys.all });
  });
  const start = () => {
    if (create.isPending) return;
    setError(null);
    create.mutate(undefined, {
      onSuccess: (reply) => {
        setLink(reply);
        if (telegram) openTelegramLink(reply.url);
      },
      onError: (failure) => {
        haptics.notify("error");
        setError(formErrorOf(failure));
      },
    });
  };
  const minutes = String(Math.round((link?.expiresInSeconds ?? TELEGRAM_LINK_SECONDS) / 60));
  return (
    <div className="settings-telegram-link" data-testid="telegram-link">
      <Button type="button" size="s" mode="bezeled" loading={create.isPending} onClick={start}>
        {t("security.telegramLink")}
      </Button>
      {link && !telegram ? (
        <a className="settings-telegram-open" href={link.url} target="_blank" rel="noopener noreferrer">
          {t("security.telegramOpen")}
        </a>
      ) : null}
      <p className="settings-telegram-hint">{t("security.telegramLinkHint", { minutes })}</p>
      <FormErrorBanner error={error} />
    </div>
  );
}

/** The server's link lifetime, shown before the first link is made. */
const TELEGRAM_LINK_SECONDS = 600;

/** The wait for a new e-mail code is kept under the phone's purpose (the kit's purposes), for the e-mail. */
const EMAIL_CODE_PURPOSE = "phone";
const EMAIL_SUBJECT = "email";

/**
 * Notifications in the Telegram chat (the bot: money moves and the operator's news): on or off at
 * once. An account not linked to Telegram has no chat to write to: the switch is off and says so.
 */
export function ChatNotificationsSection() {
  const { t } = useTranslation("settings");
  const settings = useQuery(securityQueries.settings());
  return (
    <Section header={t("notifications.header")} footer={t("notifications.hint")} data-section="notifications">
      <QuerySection query={settings} empty="" isEmpty={() => false}>
        {(data) => <ChatNotificationsCell linked={data.chatLinked} on={data.chatNotifications} />}
      </QuerySection>
    </Section>
  );
}

function ChatNotificationsCell({ linked, on }: { linked: boolean; on: boolean }) {
  const { t } = useTranslation("settings");
  const queryClient = useQueryClient();
  const toggle = useMutation(securityMutations.setChatNotifications());
  const [error, setError] = useState<FormError | null>(null);
  const change = (next: boolean) => {
    setError(null);
    toggle.mutate(next, settingsSaved(queryClient, setError));
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
