import { useAtomValue } from "jotai";
import type { ReactNode } from "react";
import { SpinnerScreen } from "@/components/spinner-screen";
import { loginPath, paths, phoneVerificationPath, safeNextPath } from "@/config/paths";
import { needsPhoneConfirmation } from "@/features/auth/model/phone-pending";
import { Navigate, useLocation, useSearchParams } from "@/lib/router";
import { isSignedInAtom, userAtom } from "@/lib/session";

/**
 * A guard's way on: the router renders a location change in a transition, which keeps what was on view until the
 * screen it leads to has its code; on view is the spinner, not an empty page (a cold launch's redirect waited
 * about a second on a slow phone with nothing on screen).
 */
function Redirect({ to }: { to: string }) {
  return (
    <>
      <Navigate to={to} replace />
      <SpinnerScreen />
    </>
  );
}

/**
 * Cabinet routes: a signed-out visitor goes to `/login?next=<where they were going>`; a user whose
 * phone waits for its code goes to phone verification first (and on to the same place after it).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const signedIn = useAtomValue(isSignedInAtom);
  const user = useAtomValue(userAtom);
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  if (!signedIn) return <Redirect to={loginPath(here)} />;
  if (needsPhoneConfirmation(user)) return <Redirect to={phoneVerificationPath(here)} />;
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
  if (needsPhoneConfirmation(user)) return <Redirect to={phoneVerificationPath(next)} />;
  return <Redirect to={next ?? paths.cabinet} />;
}

/** Phone verification: only for a signed-in user whose phone waits; everyone else goes on. */
export function RequirePhonePending({ children }: { children: ReactNode }) {
  const signedIn = useAtomValue(isSignedInAtom);
  const user = useAtomValue(userAtom);
  const [params] = useSearchParams();
  if (!signedIn) return <Redirect to={paths.login} />;
  if (!needsPhoneConfirmation(user)) return <Redirect to={safeNextPath(params.get("next")) ?? paths.cabinet} />;
  return children;
}
