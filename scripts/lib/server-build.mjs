// The server as built JavaScript: one ES module bundled from server/src by esbuild (the packages
// stay in node_modules), with the migrations beside it. `npm start` runs it in its own process,
// so no TypeScript is transpiled at run time. The bundle sits at the same depth as the sources
// (server/build/js/ like server/src/db/), so the paths it resolves from its own file (the
// locales, the migrations) hold.
import { cpSync, existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { newest } from "./freshness.mjs";

export const SERVER_BUILD_DIR = "server/build/js";
export const SERVER_ENTRY = join(SERVER_BUILD_DIR, "main.mjs");
const SOURCES = ["server/src", "contract", "package-lock.json", "tsconfig.json", "server/tsconfig.json"];

export function serverBuildIsStale() {
  if (!existsSync(SERVER_ENTRY)) return true;
  const built = statSync(SERVER_ENTRY).mtimeMs;
  return SOURCES.some((s) => newest(s) > built);
}

export async function buildServer() {
  const { build } = await import("esbuild");
  rmSync(SERVER_BUILD_DIR, { recursive: true, force: true });
  await build({
    entryPoints: ["server/src/main.ts"],
    outfile: SERVER_ENTRY,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    packages: "external",
    tsconfig: "server/tsconfig.json",
    sourcemap: true,
    logLevel: "warning",
  });
  cpSync("server/src/db/migrations", join(SERVER_BUILD_DIR, "migrations"), { recursive: true });
}
