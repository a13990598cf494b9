import { useQueryClient } from "@tanstack/react-query";
import { useSetAtom } from "jotai";
import { startTransition, useCallback, useRef } from "react";
import { paths } from "@/config/paths";
import { useNavigate } from "@/lib/router";
import { clearSessionAtom, getSessionToken } from "@/lib/session";
import { revokeSession } from "../api/session";
import { optOutOfTelegramAutoSignIn } from "../model/telegram-auto-sign-in";

/**
 * Signs out: asks the server to revoke the token (`POST /auth/logout`), then forgets the session here
 * even if that call failed, drops the user's cached data and returns to the login screen.
 */
export function useLogout(): () => Promise<void> {
  const clearSession = useSetAtom(clearSessionAtom);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const running = useRef(false);
  return useCallback(async () => {
    if (running.current) return;
    running.current = true;
    const token = getSessionToken();
    try {
      if (token) await revokeSession(token);
    } catch {
      // Offline, or the token had already ended: signing out here is what the user asked for.
    } finally {
      optOutOfTelegramAutoSignIn();
      // One transition: the cabinet's guard never sees "signed out but still here" (it would add `next`).
      startTransition(() => {
        clearSession();
        navigate(paths.login, { replace: true });
      });
      // Public settings stay; everything else belonged to this user.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== "settings" });
      running.current = false;
    }
  }, [clearSession, navigate, queryClient]);
}
