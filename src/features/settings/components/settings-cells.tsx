/**
 * Settings' list (Telegram's own settings as the model): one cell per screen, a coloured icon, the
 * screen's name and a short status under it (wrapping on a narrow phone, never cut), and the chevron.
 */
import { Navigation } from "@telegram-apps/telegram-ui";
import type { ReactNode } from "react";
import { Icon } from "@/components/icons";
import { LinkCell } from "@/components/link-cell";
import "./settings.css";

export type SettingsIconName =
  | "profile"
  | "security"
  | "wallets"
  | "verification"
  | "subscription"
  | "notifications"
  | "language"
  | "password";

const GLYPHS: Record<SettingsIconName, ReactNode> = {
  profile: (
    <>
      <circle cx="12" cy="8" r="3.5" />
      <path d="M5 20a7 7 0 0 1 14 0" />
    </>
  ),
  security: <path d="M12 3 5 6v5c0 4.5 3 8.5 7 10 4-1.5 7-5.5 7-10V6z" />,
  password: (
    <>
      <rect x="5" y="10" width="14" height="10" rx="2" />
      <path d="M8 10V7a4 4 0 0 1 8 0v3" />
    </>
  ),
  wallets: (
    <>
      <rect x="3" y="6" width="18" height="13" rx="2" />
      <path d="M16 12.5h2M3 10h18" />
    </>
  ),
  verification: (
    <>
      <rect x="4" y="4" width="16" height="16" rx="3" />
      <path d="m8.5 12 2.5 2.5 4.5-5" />
    </>
  ),
  subscription: <path d="m12 4 2.4 4.9 5.4.8-3.9 3.8.9 5.4-4.8-2.5-4.8 2.5.9-5.4-3.9-3.8 5.4-.8z" />,
  notifications: <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15zM10 20.5h4" />,
  language: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M3.5 12h17M12 3.5c2.5 2.5 3.5 5.5 3.5 8.5s-1 6-3.5 8.5c-2.5-2.5-3.5-5.5-3.5-8.5s1-6 3.5-8.5" />
    </>
  ),
};

/** A white glyph on the screen's colour, as Telegram's settings draw them. */
export function SettingsIcon({ name }: { name: SettingsIconName }) {
  return (
    <span className={`settings-icon settings-icon-${name}`} aria-hidden="true">
      <Icon size={20} strokeWidth={2}>
        {GLYPHS[name]}
      </Icon>
    </span>
  );
}

/** One cell of the list: opens `to`; `status` is the one line under the name (skipped while unknown). */
export function SettingsCell({
  to,
  icon,
  title,
  status,
  before,
}: {
  to: string;
  icon: SettingsIconName;
  title: string;
  status: string | null | undefined;
  /** Instead of the icon (the profile's avatar). */
  before?: ReactNode;
}) {
  return (
    <LinkCell
      to={to}
      className="settings-cell"
      // A long status (an address at 320 px in German) wraps rather than being cut.
      multiline
      before={before ?? <SettingsIcon name={icon} />}
      after={<Navigation />}
      subtitle={status ?? undefined}
      data-settings-cell={icon}
    >
      {title}
    </LinkCell>
  );
}
