// `npm start`: builds what is missing or older than its sources — the app (vite build) and the
// server (built JavaScript, scripts/lib/server-build.mjs) — then runs the server in this very
// process: it serves the app and the API from one origin (the API under /api) with the embedded
// database and demo data. With STATIC_DIR set empty (API only) the app is not built.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildIsStale } from "./lib/freshness.mjs";
import { buildServer, SERVER_ENTRY, serverBuildIsStale } from "./lib/server-build.mjs";

process.chdir(resolve(import.meta.dirname, ".."));
process.env.STATIC_DIR ??= "dist";

if (process.env.STATIC_DIR !== "" && buildIsStale()) {
  console.log("[kassa] building the app (vite build)…");
  const build = spawnSync("node_modules/.bin/vite", ["build", "--logLevel", "warn"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
if (serverBuildIsStale()) {
  console.log("[kassa] building the server (esbuild)…");
  await buildServer();
}
await import(pathToFileURL(resolve(SERVER_ENTRY)).href);
