import { useAtomValue } from "jotai";
import type { ReactNode } from "react";
import { loginPath, paths, phoneVerificationPath, safeNextPath } from "@/config/paths";
import { needsPhoneConfirmation } from "@/features/auth/model/phone-pending";
import { Navigate, useLocation, useSearchParams } from "@/lib/router";
import { isSignedInAtom, userAtom } from "@/lib/session";

/**
 * Cabinet routes: a signed-out visitor goes to `/login?next=<where they were going>`; a user whose
 * phone waits for its code goes to phone verification first (and on to the same place after it).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const signedIn = useAtomValue(isSignedInAtom);
  const user = useAtomValue(userAtom);
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  if (!signedIn) return <Navigate to={loginPath(here)} replace />;
  if (needsPhoneConfirmation(user)) return <Navigate to={phoneVerificationPath(here)} replace />;
  return children;
}

/**
 * Login and the other entry screens: a signed-in user goes on to `next` (or the cabinet), through
 * phone verification when the phone waits for its code. Signing in therefore needs no navigation of
 * its own: the screen saves the session and this guard takes the user where they were going.
 */
export function RedirectSignedIn({ children }: { children: ReactNode }) {
  const signedIn = useAtomValue(isSignedInAtom);
  const user = useAtomValue(userAtom);
  const [params] = useSearchParams();
  if (!signedIn) return children;
  const next = safeNextPath(params.get("next"));
  if (needsPhoneConfirmation(user)) return <Navigate to={phoneVerificationPath(next)} replace />;
  return <Navigate to={next ?? paths.cabinet} replace />;
}

/** Phone verification: only for a signed-in user whose phone waits; everyone else goes on. */
export function RequirePhonePending({ children }: { children: ReactNode }) {
  const signedIn = useAtomValue(isSignedInAtom);
  const user = useAtomValue(userAtom);
  const [params] = useSearchParams();
  if (!signedIn) return <Navigate to={paths.login} replace />;
  if (!needsPhoneConfirmation(user)) return <Navigate to={safeNextPath(params.get("next")) ?? paths.cabinet} replace />;
  return children;
}
