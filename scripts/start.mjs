// `npm start`: builds the app when the build is missing or stale, then serves the app and the API from
// one origin (the API under /api) with the embedded database and demo data.
import { spawn, spawnSync } from "node:child_process";
import { buildIsStale } from "./lib/freshness.mjs";

if (buildIsStale()) {
  console.log("[kassa] building the app (vite build)…");
  const build = spawnSync("node_modules/.bin/vite", ["build", "--logLevel", "warn"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn("node_modules/.bin/tsx", ["server/src/main.ts"], {
  stdio: "inherit",
  env: { STATIC_DIR: "dist", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
