/**
 * The inviter of an invitation link (docs/decisions.md#d4-identity-and-sessions) on the web: `/?ref=<login>` or
 * `/register?ref=<login>`. A signed-out visitor of `/?ref=<login>` is sent to `/login?next=/?ref=<login>`, so the
 * `next` of the login screen is read too. The login seen is kept in sessionStorage for the tab, so it survives a
 * reload and the detour through the login screen to the registration, whose URL no longer carries it.
 */
import { useEffect } from "react";
import { useLocation } from "@/lib/router";

const STORAGE_KEY = "kassa.referral";
/** A login as the contract allows it (Latin letters and digits); checked here without the contract's zod. */
const LOGIN = /^[A-Za-z0-9]{1,64}$/;

const asLogin = (value: string | null | undefined): string | undefined =>
  value && LOGIN.test(value) ? value : undefined;

/** The `ref` of a URL's query, or of the query of its `next` (a path of this app). */
export function referralFromSearch(search: string): string | undefined {
  const params = new URLSearchParams(search);
  const direct = asLogin(params.get("ref"));
  if (direct) return direct;
  const next = params.get("next");
  if (!next?.startsWith("/")) return undefined;
  const query = next.indexOf("?");
  return query < 0 ? undefined : asLogin(new URLSearchParams(next.slice(query)).get("ref"));
}

/** The inviter kept from an earlier screen of this tab. */
function rememberedReferral(): string | undefined {
  try {
    return asLogin(sessionStorage.getItem(STORAGE_KEY));
  } catch {
    return undefined;
  }
}

function remember(login: string | undefined): void {
  try {
    if (login) sessionStorage.setItem(STORAGE_KEY, login);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode): the link still works on the screen that carries it.
  }
}

/** Forgets the kept inviter (once the account is made). */
export function forgetReferral(): void {
  remember(undefined);
}

/** The inviter of the current URL (kept for the tab), else the one kept earlier. */
export function useReferral(): string | undefined {
  const { search } = useLocation();
  const fromUrl = referralFromSearch(search);
  useEffect(() => {
    if (fromUrl) remember(fromUrl);
  }, [fromUrl]);
  return fromUrl ?? rememberedReferral();
}
