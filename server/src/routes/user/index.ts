/** User calls (docs/cabinet-rules.md#api-calls; here the profile) plus the added `GET /user/me`. */
import { routes } from "@contract";
import type { KassaApp, ServiceContext } from "../../context";
import { sessionTimeout } from "../../plugins/auth";
import { currentUser } from "../../services/auth";
import { getProfile, userView } from "../../services/users";
import { defineRoute } from "../define";

/** Only ever the caller's own data: the user comes from the session, never from the request. */
async function userData(ctx: ServiceContext, userId: string) {
  const profile = await getProfile(ctx.db, userId);
  if (!profile) throw sessionTimeout();
  return profile;
}

export async function userRoutes(app: KassaApp) {
  // `profile` is the one type (the path schema refuses any other).
  defineRoute(
    app,
    routes.userDataByType,
    { summary: "The caller's data of one type (profile: the settings data)" },
    ({ ctx, auth }) => userData(ctx, auth.userId),
  );

  defineRoute(app, routes.userData, { summary: "The caller's profile (the default type)" }, ({ ctx, auth }) =>
    userData(ctx, auth.userId),
  );

  defineRoute(
    app,
    routes.currentUser,
    { summary: "The signed-in user, to refresh the saved user object (added beside the cabinet's calls)" },
    async ({ ctx, auth }) => userView(ctx.db, ctx.clock, await currentUser(ctx, auth)),
  );
}
