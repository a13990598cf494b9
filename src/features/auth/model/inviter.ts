/** Referral links (decision D4): `/register/<login>` on the web, `startapp=ref_<login>` in Telegram. */
const REFERRAL_PREFIX = "ref_";

/** The inviter's login from a Telegram start parameter `ref_<login>`, else undefined. */
export function inviterFromStartParam(startParam: string | null | undefined): string | undefined {
  if (!startParam?.startsWith(REFERRAL_PREFIX)) return undefined;
  const login = startParam.slice(REFERRAL_PREFIX.length).trim();
  return login === "" ? undefined : login;
}

export function referralStartParam(login: string): string {
  return `${REFERRAL_PREFIX}${login}`;
}
