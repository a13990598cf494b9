import { useAtomValue } from "jotai";
import { Navigate, Outlet, useLocation, useSearchParams } from "react-router";
import { loginPath, paths, safeNextPath } from "@/config/paths";
import { isSignedInAtom } from "@/lib/session";

/** Cabinet routes: a signed-out visitor goes to `/login?next=<where they were going>`. */
export function RequireSession() {
  const signedIn = useAtomValue(isSignedInAtom);
  const location = useLocation();
  if (!signedIn) return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  return <Outlet />;
}

/** Login and the other entry screens: a signed-in user goes on to the cabinet (or to `next`). */
export function RedirectSignedIn() {
  const signedIn = useAtomValue(isSignedInAtom);
  const [params] = useSearchParams();
  if (signedIn) return <Navigate to={safeNextPath(params.get("next")) ?? paths.cabinet} replace />;
  return <Outlet />;
}
