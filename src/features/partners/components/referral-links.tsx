import { Button, Section } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "@/lib/api-client";
import { useCopied } from "@/lib/use-copied";
import type { TelegramBridge } from "@/tma/bridge";
import { haptics, useTelegram } from "@/tma/hooks";
import { openTelegramLink, shareThroughTelegram } from "@/tma/links";
import { telegramReferralLink, telegramShareLink, webReferralLink } from "../model/referral-link";

type LinkKind = "web" | "telegram";

/** The caller's referral links (docs/decisions.md#d4-identity-and-sessions), each with copy and share. */
export function ReferralLinks({ login, botUsername }: { login: string; botUsername: string | null }) {
  const { t } = useTranslation("partners");
  const links: { kind: LinkKind; url: string }[] = [
    { kind: "web", url: webReferralLink(window.location.origin, login) },
    ...(botUsername ? [{ kind: "telegram" as const, url: telegramReferralLink(botUsername, login) }] : []),
  ];
  return (
    <Section header={t("link.header")} footer={t("link.note")}>
      {links.map((link) => (
        <ReferralLink key={link.kind} kind={link.kind} url={link.url} />
      ))}
    </Section>
  );
}

function ReferralLink({ kind, url }: { kind: LinkKind; url: string }) {
  const { t } = useTranslation("partners");
  const bridge = useTelegram();
  const [copied, setCopied] = useCopied();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      haptics.impact("light");
      setCopied();
    } catch {
      haptics.notify("error");
    }
  };

  const [preparing, setPreparing] = useState(false);

  /**
   * Inside Telegram (Mini Apps 8.0) the Telegram link goes as an invitation the bot prepares, with a button that
   * opens the app with the inviter; Telegram asks which chat to send it to. True when Telegram took it (sent, or
   * the picker closed); false when there is none to send (no bot, an account not linked to Telegram), so the link
   * is shared as before.
   */
  const sendInvitation = async (send: Required<TelegramBridge>["sendPreparedMessage"]): Promise<boolean> => {
    setPreparing(true);
    try {
      const { preparedMessageId } = await callApi("partnerInvite");
      if ((await send(preparedMessageId)) === "sent") haptics.notify("success");
      return true;
    } catch {
      return false;
    } finally {
      setPreparing(false);
    }
  };

  const share = async () => {
    if (preparing) return;
    const send = kind === "telegram" ? bridge?.sendPreparedMessage : undefined;
    if (send && (await sendInvitation(send))) return;
    const text = t("link.shareText");
    // Telegram's share sheet, where the client keeps the Mini App open meanwhile.
    if (shareThroughTelegram(url, text)) return;
    // Web A closes the Mini App on any t.me link: the link is copied instead, to paste into a chat.
    if (bridge) {
      await copy();
      return;
    }
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ url, text });
      } catch {
        // The user closed the share sheet.
      }
      return;
    }
    openTelegramLink(telegramShareLink(url, text));
  };

  return (
    <div className="referral-link">
      <span className="referral-link-label">{t(kind === "web" ? "link.web" : "link.telegram")}</span>
      <span className="referral-link-url" data-testid={`referral-link-${kind}`}>
        {url}
      </span>
      <span className="referral-link-actions">
        <Button
          size="s"
          mode="bezeled"
          onClick={() => void copy()}
          data-testid="copy-referral-link"
          data-link={kind}
          aria-live="polite"
        >
          {copied ? t("link.copied") : t("link.copy")}
        </Button>
        <Button
          size="s"
          mode="plain"
          loading={preparing}
          onClick={() => void share()}
          data-testid="share-referral-link"
          data-link={kind}
        >
          {t("link.share")}
        </Button>
      </span>
    </div>
  );
}
