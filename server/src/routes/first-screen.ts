/**
 * The cabinet's first screen for the launcher (`GET /app/first-screen`, docs/architecture.md#how-a-launch-flows):
 * the replies of the launch's calls (`contract/launch-calls.ts`), made through the server itself with the caller's
 * token, and the screen rendered from the user's and the overview's among them by the first renders' module the build
 * writes beside the app (`<STATIC_DIR>/.server/first-screen.mjs`): the app's own components, texts and formatter.
 * Without a built app there is nothing to render: `markup` is null. The app takes the replies as its own calls'.
 * During maintenance the call answers 503 as every signed-in call does (plugins/maintenance.ts), and the app shows
 * its maintenance screen.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type FirstScreenQuery, type OverviewReply, routes, routeUrl } from "@contract";
import { FIRST_SCREEN_MODULE } from "@contract/built-app";
import { LAUNCH_CALL_URLS } from "@contract/launch-calls";
import type { User } from "@contract/user";
import type { KassaApp } from "../context";
import { defineRoute } from "./define";

/** The replies the screen is rendered from (of those the launch's calls make). */
const USER_URL = routeUrl(routes.currentUser);
const OVERVIEW_URL = routeUrl(routes.overview);

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
      summary: "The cabinet's first screen as markup, with the launch's replies (added, for the launch)",
      description:
        "What the app shows first on a phone, in the language and the look asked for, rendered with the caller's " +
        "data; the launcher paints it while the app's code is on its way. `markup` is null when the app will show " +
        "another screen first (a phone waiting for its code) or the app is not built here. `replies` are the " +
        "launch's calls (GET /user/me, /user/overview, /user/balance?type=balance …) as each would answer them, " +
        "made with the caller's token; the app takes them as its own calls' replies.",
    },
    async ({ query, request }) => {
      const module = await screens();
      // Each call through the server itself: the same handlers, checks and replies as the call sent on its own.
      const headers = { authorization: request.headers.authorization ?? "", accept: "application/json" };
      const replies = await Promise.all(
        LAUNCH_CALL_URLS.map(async (url) => {
          const reply = await app.inject({ method: "GET", url: `${app.prefix}${url}`, headers });
          return { url, status: reply.statusCode, body: reply.body ? (reply.json() as unknown) : null };
        }),
      );
      const body = (url: string) => replies.find((reply) => reply.url === url && reply.status === 200)?.body;
      const user = body(USER_URL) as User | undefined;
      const overview = body(OVERVIEW_URL) as OverviewReply | undefined;
      const markup = module && user && overview ? module.cabinetScreen({ ...query, user, overview }) : null;
      return { markup, replies };
    },
  );
}
