import type { RegisterBody, SessionReply } from "@contract";
import { callApi } from "@/lib/api-client";

/**
 * `POST /auth/register/{inviter}`: the path segment is the inviter's login
 * (docs/decisions.md#d4-identity-and-sessions).
 */
export function register(inviter: string, body: RegisterBody): Promise<SessionReply> {
  return callApi("register", { params: { inviter }, body });
}
