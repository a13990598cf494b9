import type { LedgerOperationType } from "@contract";
import type { ReactNode } from "react";
import { Icon } from "@/components/icons";

/** Each kind's line drawing (24-unit grid, the current colour) and its tint. */
const KINDS: Record<LedgerOperationType, { tone: "in" | "out" | "neutral"; path: ReactNode }> = {
  // Income: a coin with a rising arrow; a partner's bonus: people.
  accrual: { tone: "in", path: <path d="M4 17l5-5 4 4 7-7M15 9h5v5" /> },
  referral: {
    tone: "in",
    path: <path d="M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM2.5 20a6.5 6.5 0 0 1 13 0M17 8v6M14 11h6" />,
  },
  matching: {
    tone: "in",
    path: (
      <path d="M8 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 20a6 6 0 0 1 12 0M10 20a6 6 0 0 1 12 0" />
    ),
  },
  bonus: { tone: "in", path: <path d="M4 10h16v10H4zM2.5 7h19v3h-19zM12 7v13M12 7c-2-4-6-3-5 0M12 7c2-4 6-3 5 0" /> },
  // A deposit opened (its principal leaves the balance) and returned.
  plan: { tone: "neutral", path: <path d="M3 7h18v12H3zM3 11h18M12 3v7M9 6l3 3 3-3" /> },
  deposit_return: { tone: "in", path: <path d="M3 7h18v12H3zM3 11h18M12 10V3M9 6l3-3 3 3" /> },
  refill: { tone: "in", path: <path d="M12 4v12M6 10l6 6 6-6M4 20h16" /> },
  exchange: { tone: "neutral", path: <path d="M4 8h14M14 4l4 4-4 4M20 16H6M10 12l-4 4 4 4" /> },
  withdrawal: { tone: "out", path: <path d="M12 20V8M6 14l6-6 6 6M4 4h16" /> },
  withdrawal_return: { tone: "in", path: <path d="M9 14l-5-5 5-5M4 9h11a5 5 0 0 1 0 10h-4" /> },
  subscription: { tone: "out", path: <path d="M4 6h16v13H4zM4 10h16M8 3v4M16 3v4" /> },
};

/** The kind of an operation at a glance: its drawing in a round tinted badge (decorative: the row names it). */
export function OperationIcon({ type }: { type: LedgerOperationType }) {
  const kind = KINDS[type];
  return (
    <span className={`operation-icon operation-icon-${kind.tone}`} data-icon={type} aria-hidden="true">
      <Icon size={20}>{kind.path}</Icon>
    </span>
  );
}
