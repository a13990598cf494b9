/** User group of spec §7 (this slice: the profile) plus the added `GET /user/me`. */
import { routes } from "@contract";
import { DEFAULT_USER_DATA_TYPE, type UserDataType } from "@contract/profile";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser, sessionTimeout } from "../../plugins/auth";
import { currentUser } from "../../services/auth";
import { getProfile, userView } from "../../services/users";
import { withErrors } from "../responses";

const tags = ["user"];
const security = [{ bearer: [] }];

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Only ever the caller's own data: the user comes from the session, never from the request. */
  const userData = async (userId: string, _type: UserDataType) => {
    const profile = await getProfile(app.db, userId);
    if (!profile) throw sessionTimeout();
    return profile;
  };

  app.get(
    routes.userDataByType.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's data of one type (profile: spec §3 settings data)",
        security,
        params: routes.userDataByType.params,
        response: withErrors({ 200: routes.userDataByType.response }),
      },
    },
    async (request) => userData(requireUser(request).userId, request.params.type),
  );

  app.get(
    routes.userData.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's profile (the default type)",
        security,
        response: withErrors({ 200: routes.userData.response }),
      },
    },
    async (request) => userData(requireUser(request).userId, DEFAULT_USER_DATA_TYPE),
  );

  app.get(
    routes.currentUser.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["user", "service"],
        summary: "The signed-in user, to refresh the saved user object (added beside the spec's calls)",
        security,
        response: withErrors({ 200: routes.currentUser.response }),
      },
    },
    async (request) => userView(app.db, app.clock, await currentUser(app, requireUser(request))),
  );
};
