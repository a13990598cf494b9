// `npm start`: builds what is missing or older than its sources — the app (vite build) and the
// server (built JavaScript, scripts/lib/server-build.mjs) — then runs the server in this very
// process: it serves the app and the API from one origin (the API under /api) with the embedded
// database and demo data. With STATIC_DIR set empty (API only) the app is not built.
//
// Node's compile cache is on (module.enableCompileCache: in NODE_COMPILE_CACHE, else a folder of
// the system's temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a start after the
// first reuses the code V8 compiled for the server's modules instead of compiling them again.
import { spawnSync } from "node:child_process";
import module from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildIsStale } from "./lib/freshness.mjs";
import { buildServer, SERVER_ENTRY, serverBuildIsStale } from "./lib/server-build.mjs";

module.enableCompileCache?.(); // (Node 22.1 and later)
process.chdir(resolve(import.meta.dirname, ".."));
process.env.STATIC_DIR ??= "dist";
console.log(`[kassa] Node ${process.version} (the project's own, from its node devDependency)`);

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
