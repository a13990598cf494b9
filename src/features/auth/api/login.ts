import type { LoginBody, SessionReply } from "@contract";
import { callApi } from "@/lib/api-client";

/** `POST /auth/login` with a login (or e-mail) and a password. */
export function login(body: LoginBody): Promise<SessionReply> {
  return callApi("login", { body });
}
