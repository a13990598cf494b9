import { useSetAtom } from "jotai";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { paths } from "@/config/paths";
import { clearSessionAtom } from "@/lib/session";

/**
 * Signs out here and returns to the login screen. (The server-side logout call, which revokes the
 * refresh token, is added with the auth endpoints.)
 */
export function useLogout(): () => void {
  const clearSession = useSetAtom(clearSessionAtom);
  const navigate = useNavigate();
  return useCallback(() => {
    clearSession();
    navigate(paths.login, { replace: true });
  }, [clearSession, navigate]);
}
