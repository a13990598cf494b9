/**
 * Serves the built app (the `vite build` output in STATIC_DIR) beside the API, from one origin.
 * Hashed files under /assets are cached for a year; everything else is revalidated, so a new
 * deployment shows at the next load. Routes of the app (`/deposits`, `/register/kassa`) are not
 * files: the not-found handler answers them with index.html (see `spaFallback`).
 */
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

/** Whether `dir` holds a built app. */
export function hasBuiltApp(dir: string): boolean {
  return fs.existsSync(path.join(dir, "index.html"));
}

export async function registerStaticApp(app: FastifyInstance, dir: string): Promise<void> {
  // Imported only when there is an app to serve: an API-only server never loads it.
  const { default: fastifyStatic } = await import("@fastify/static");
  const assetsDir = `${path.join(dir, "assets")}${path.sep}`;
  await app.register(fastifyStatic, {
    root: dir,
    // A route per built file, listed once at the start: a deployment's files do not change while it runs. With one
    // route for every path, @fastify/static reads each folder on the way to check the path's spelling, on every
    // request, and more for a path that is no file: a route of the app (`/deposits`) cost 1.0 ms of the server's CPU
    // per request, 0.3 now (`BENCH_ONLY=page npm run bench`, the rows beside `/`).
    wildcard: false,
    // The compressed copies are no files of the app: a request for the file gets them (preCompressed below).
    globIgnore: ["**/*.br", "**/*.gz"],
    cacheControl: false,
    // The build writes a Brotli and a gzip copy of each file worth compressing (build/precompress.ts): sent as
    // they are to a client that takes them, so no reply compresses the app's files again.
    preCompressed: true,
    // Dotfiles and source maps are not part of the app.
    dotfiles: "ignore",
    setHeaders: (reply, filePath) => {
      reply.header("cache-control", path.resolve(dir, filePath).startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
    },
  });
}

export function isApiPath(url: string): boolean {
  return url === "/api" || url.startsWith("/api/") || url.startsWith("/api?");
}

/** Whether a request that matched no file should get the app's index.html. */
export function wantsAppShell(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (isApiPath(request.url)) return false;
  // A missing hashed asset is a real 404, not a page of the app.
  return !request.url.startsWith("/assets/");
}

export function sendAppShell(reply: FastifyReply) {
  return reply.header("cache-control", REVALIDATE).sendFile("index.html");
}
