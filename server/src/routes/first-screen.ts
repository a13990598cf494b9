/**
 * The cabinet's first screen for the launcher (`GET /app/first-screen`, docs/architecture.md#how-a-launch-flows):
 * rendered from the app's own components, texts and formatter, with the caller's user and overview as the app will
 * show them, by the first renders' module the build writes beside the app (`<STATIC_DIR>/.server/first-screen.mjs`).
 * Without a built app there is nothing to render: `markup` is null. The reply carries the user and the overview it was
 * rendered from, which the app takes as its own calls' replies. During maintenance the call answers 503 as every
 * signed-in call does (plugins/maintenance.ts), and the app shows its maintenance screen.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type FirstScreenQuery, type OverviewReply, routes } from "@contract";
import { FIRST_SCREEN_MODULE } from "@contract/built-app";
import type { User } from "@contract/user";
import type { KassaApp } from "../context";
import { currentUser } from "../services/auth";
import { getOverview } from "../services/income";
import { userView } from "../services/users";
import { defineRoute } from "./define";

/** What the server uses of the module (`src/app/launcher/first-screen.tsx`). */
interface FirstScreenModule {
  cabinetScreen(screen: FirstScreenQuery & { user: User; overview: OverviewReply }): string | null;
}

/**
 * The module of the built app in `staticDir`, imported once per build (a new build, a new file: imported again),
 * or null without one.
 */
function firstScreenModule(staticDir: string | null, log: KassaApp["log"]) {
  let kept: { version: number; module: Promise<FirstScreenModule | null> } | null = null;
  return (): Promise<FirstScreenModule | null> => {
    if (staticDir === null) return Promise.resolve(null);
    const file = path.join(staticDir, FIRST_SCREEN_MODULE);
    let version: number;
    try {
      version = fs.statSync(file).mtimeMs;
    } catch {
      return Promise.resolve(null);
    }
    if (kept?.version !== version) {
      const module = import(`${pathToFileURL(file).href}?v=${version}`) as Promise<FirstScreenModule>;
      kept = {
        version,
        // A build copied away from the packages it imports (node_modules): the app starts unpainted.
        module: module.catch((error: unknown) => {
          log.warn({ err: error, file }, "the first screen's module did not load: launches are not painted");
          return null;
        }),
      };
    }
    return kept.module;
  };
}

export async function firstScreenRoutes(app: KassaApp, options: { staticDir: string | null }) {
  const screens = firstScreenModule(options.staticDir, app.log);
  // Imported once the server is up rather than by the first launch (a quarter of a second, ~17 MB of memory).
  app.addHook("onReady", async () => {
    setTimeout(() => void screens(), 0).unref();
  });
  defineRoute(
    app,
    routes.firstScreen,
    {
      summary: "The cabinet's first screen as markup, rendered with the caller's data (added, for the launch)",
      description:
        "What the app shows first on a phone once the user and the overview have come, in the language and the " +
        "look asked for; the launcher paints it while the app's code is on its way. `markup` is null when the app " +
        "will show another screen first (a phone waiting for its code) or the app is not built here. `user` and " +
        "`overview` are what it was rendered from, as GET /user/me and GET /user/overview answer.",
    },
    async ({ ctx, auth, query }) => {
      const module = await screens();
      const user = await userView(ctx.db, ctx.clock, await currentUser(ctx, auth));
      const overview = await getOverview(ctx.db, auth.userId);
      return { markup: module?.cabinetScreen({ ...query, user, overview }) ?? null, user, overview };
    },
  );
}
