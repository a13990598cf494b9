/** Replies for `stubRoutes` that more than one screen test needs. */
import type { PublicSettingKey } from "@contract";
import type { RouteReply } from "./test-utils";

/** The reply a server gives for what it does not have. */
export const NOT_FOUND = { status: 404, body: { code: "NOT_FOUND", message: "Not found" } };

/**
 * A `setting` stub that answers one public setting (`GET /settings/<key>`); any other key is a 404,
 * as a server without it answers (the route's path matches every key).
 */
export function oneSetting(key: PublicSettingKey, value: unknown) {
  return (request: Request): RouteReply<"setting"> =>
    new URL(request.url).pathname.endsWith(`/settings/${key}`) ? { body: { key, value } } : NOT_FOUND;
}
