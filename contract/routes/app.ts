// The route table's call for the launch's painted first screen (`contract/routes.ts` joins the areas).
import { FirstScreenQuery, FirstScreenReply } from "../first-screen";
import { route } from "./route";

export const appRoutes = {
  /**
   * Added for the launch: the cabinet's first screen rendered from the app's components with the caller's own
   * figures, which the launcher paints while the app's code is on its way.
   */
  firstScreen: route({
    method: "GET",
    path: "/app/first-screen",
    auth: true,
    tags: ["user", "service"],
    query: FirstScreenQuery,
    response: FirstScreenReply,
  }),
} as const;
