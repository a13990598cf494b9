/**
 * Start parameters of the Mini App (`t.me/<bot>?startapp=<param>`, `tgWebAppStartParam`) and of the
 * bot's `/start <param>`: one rule for both sides. Telegram allows `A-Z a-z 0-9 _ -`, at most 64
 * characters; a login (Latin letters and digits) and a UUID both fit.
 *
 * - `ref_<login>`: the inviter of a registration (docs/decisions.md#d4-identity-and-sessions);
 * - `withdrawal_<id>`, `deposit_<id>`, `refill_<id>`, `news_<id>`: the screen of that item;
 * - `settings`: the settings screen (verification decided).
 */
export const START_PARAM_PREFIXES = {
  ref: "ref_",
  withdrawal: "withdrawal_",
  deposit: "deposit_",
  refill: "refill_",
  news: "news_",
} as const;

export type StartTargetKind = keyof typeof START_PARAM_PREFIXES;

/** Start parameters that are a screen alone, without an item. */
export const START_PARAM_SCREENS = ["settings"] as const;

export type StartTarget =
  | { kind: "ref"; login: string }
  | { kind: "withdrawal" | "deposit" | "refill" | "news"; id: string }
  | { kind: (typeof START_PARAM_SCREENS)[number] };

/** What Telegram accepts as a start parameter. */
export const START_PARAM_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The target of a start parameter, or null when it is none of ours (or not a valid parameter). */
export function parseStartParam(value: string | null | undefined): StartTarget | null {
  const param = value?.trim();
  if (!param || !START_PARAM_PATTERN.test(param)) return null;
  const screen = START_PARAM_SCREENS.find((name) => name === param);
  if (screen) return { kind: screen };
  for (const [kind, prefix] of Object.entries(START_PARAM_PREFIXES) as [StartTargetKind, string][]) {
    if (!param.startsWith(prefix)) continue;
    const rest = param.slice(prefix.length);
    if (rest === "") return null;
    return kind === "ref" ? { kind, login: rest } : { kind, id: rest };
  }
  return null;
}

/** The start parameter that opens `target`; null when it would not be a valid one (too long). */
export function formatStartParam(target: StartTarget): string | null {
  const value =
    target.kind === "ref"
      ? `${START_PARAM_PREFIXES.ref}${target.login}`
      : "id" in target
        ? `${START_PARAM_PREFIXES[target.kind]}${target.id}`
        : target.kind;
  return START_PARAM_PATTERN.test(value) ? value : null;
}

/** The inviter's login of a start parameter `ref_<login>`, else undefined. */
export function inviterFromStartParam(value: string | null | undefined): string | undefined {
  const target = parseStartParam(value);
  return target?.kind === "ref" ? target.login : undefined;
}

/** `ref_<login>`: the start parameter of a referral link. */
export function referralStartParam(login: string): string {
  return `${START_PARAM_PREFIXES.ref}${login}`;
}

/**
 * `https://t.me/<bot>?startapp=ref_<login>`: opens the Mini App with the inviter as start parameter (the
 * Partners screen's link and the button of the invitation the bot prepares).
 */
export function telegramReferralLink(botUsername: string, login: string): string {
  const bot = botUsername.replace(/^@/, "");
  return `https://t.me/${encodeURIComponent(bot)}?startapp=${encodeURIComponent(referralStartParam(login))}`;
}
