import { Cell } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";

export function PaperPlaneIcon() {
  return (
    <svg
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path d="m21 4-18 7 6.5 2.5M21 4l-3 16-8.5-6.5M21 4 9.5 13.5V19l3-3" strokeLinejoin="round" />
    </svg>
  );
}

/** On the web, with Telegram sign-in on: open the bot's Mini App, which signs in without a password. */
export function OpenInTelegramCell({ href }: { href: string }) {
  const { t } = useTranslation("auth");
  return (
    <Cell
      Component="a"
      className="link-cell telegram-cell"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      before={<PaperPlaneIcon />}
      description={t("login.openInTelegramHint")}
      multiline
      data-testid="open-in-telegram"
    >
      {t("login.openInTelegram")}
    </Cell>
  );
}

/**
 * The cell's room while the login does not yet know whether to offer it (the flag or the bot's name is on its
 * way): the same cell, unseen and out of reach, so its own texts size it at any width and in any language, and
 * the sections below it do not move down when it comes (a layout shift).
 */
export function OpenInTelegramRoom() {
  const { t } = useTranslation("auth");
  return (
    <Cell
      Component="div"
      className="link-cell telegram-cell"
      aria-hidden="true"
      inert
      style={{ visibility: "hidden" }}
      before={<PaperPlaneIcon />}
      description={t("login.openInTelegramHint")}
      multiline
      data-testid="open-in-telegram-room"
    >
      {t("login.openInTelegram")}
    </Cell>
  );
}
