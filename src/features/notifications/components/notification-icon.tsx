import type { NotificationKind } from "@contract";
import type { ReactNode } from "react";
import { Icon } from "@/components/icons";
import "../notifications.css";

/** Each kind's line drawing (24-unit grid, the current colour) and its tint. */
const KINDS: Record<NotificationKind, { tone: "in" | "out" | "neutral"; path: ReactNode }> = {
  refill_credited: { tone: "in", path: <path d="M12 4v12M6 10l6 6 6-6M4 20h16" /> },
  refill_rejected: { tone: "out", path: <path d="M12 4v9M7 8l5 5 5-5M4 20h16M9 16.5l6 0" /> },
  withdrawal_status: { tone: "neutral", path: <path d="M12 20V8M6 14l6-6 6 6M4 4h16" /> },
  deposit_ended: { tone: "in", path: <path d="M3 7h18v12H3zM3 11h18M12 10V3M9 6l3-3 3 3" /> },
  verification_success: {
    tone: "in",
    path: <path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6zM8.5 12l2.5 2.5 4.5-5" />,
  },
  verification_denied: {
    tone: "out",
    path: <path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6zM9.5 9.5l5 5M14.5 9.5l-5 5" />,
  },
  subscription_activated: { tone: "in", path: <path d="M4 6h16v13H4zM4 10h16M8 3v4M16 3v4" /> },
  withdrawals_locked: { tone: "out", path: <path d="M6 11h12v9H6zM8.5 11V8a3.5 3.5 0 0 1 7 0v3M12 14.5v2" /> },
  wallet_changed: { tone: "neutral", path: <path d="M3 7h16v12H3zM3 7l12-3v3M15 12h6v3h-6z" /> },
};

/** A notification's kind at a glance: its drawing in a round tinted badge (decorative: the row's title names it). */
export function NotificationIcon({ kind }: { kind: string }) {
  // A kind this app does not know yet: the bell's neutral badge.
  const known = KINDS[kind as NotificationKind] ?? {
    tone: "neutral",
    path: <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15zM10 20h4" />,
  };
  return (
    <span className={`notification-icon notification-icon-${known.tone}`} data-icon={kind} aria-hidden="true">
      <Icon size={20}>{known.path}</Icon>
    </span>
  );
}
