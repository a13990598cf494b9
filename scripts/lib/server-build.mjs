// The server as built JavaScript: ES modules bundled from server/src by esbuild (the packages
// stay in node_modules but drizzle-orm, below), with the migrations beside them. `npm start`
// runs it in its own process, so no TypeScript is transpiled at run time. The bundle sits at the
// same depth as the sources (server/build/js/ like server/src/db/), so the paths it resolves from
// its own file (the locales, the migrations) hold.
//
// Split into chunks: what main.ts and app.ts import with `import()` (the app's code once the
// socket listens, the bot only when there is one) is a file of its own, so its packages load only
// when it is imported (grammy not at all without the bot). A server imports its chunks in its
// first seconds; a rebuild keeps the previous build's files beside its own (files.json), so a
// server starting from the previous build still finds them.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newest } from "./freshness.mjs";

const SERVER_BUILD_DIR = "server/build/js";
export const SERVER_ENTRY = join(SERVER_BUILD_DIR, "main.mjs");
const SOURCES = ["server/src", "contract", "package-lock.json", "tsconfig.json", "server/tsconfig.json"];

const MANIFEST = join(SERVER_BUILD_DIR, "files.json");

/** Stale: missing, older than a source, or a file of it gone (two builds at once cleaning up). */
export function serverBuildIsStale() {
  if (!existsSync(SERVER_ENTRY) || !existsSync(MANIFEST)) return true;
  const built = statSync(SERVER_ENTRY).mtimeMs;
  if (builtFiles().some((file) => !existsSync(join(SERVER_BUILD_DIR, file)))) return true;
  return SOURCES.some((s) => newest(s) > built);
}

function builtFiles() {
  try {
    return JSON.parse(readFileSync(MANIFEST, "utf8")).files ?? [];
  } catch {
    return [];
  }
}

// The packages stay in node_modules (imported from there at run time), all but drizzle-orm, which
// is bundled: it is hundreds of small ES modules, and its package.json (180 kB, an entry for every
// file in "exports") is read again for each of them when Node 24 loads them (its module-format
// check), which cost more than loading every other package of the server together.
const BUNDLED = /^drizzle-orm(\/|$)/;
const packagesExternal = {
  name: "packages-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === "resolving") return undefined;
      const { kind, resolveDir, importer } = args;
      const resolved = await build.resolve(args.path, { kind, resolveDir, importer, pluginData: "resolving" });
      if (resolved.errors.length > 0 || resolved.external || BUNDLED.test(args.path)) return resolved;
      return resolved.path.includes("/node_modules/") ? { path: args.path, external: true } : resolved;
    });
  },
};

export async function buildServer() {
  const { build, stop } = await import("esbuild");
  const previous = builtFiles();
  // esbuild's service process would otherwise live on beside the server `npm start` runs in this
  // process (37-70 MB of its tree): stopped once the build is written.
  const result = await build({
    entryPoints: ["server/src/main.ts", "server/src/db/make-initial-data.ts"],
    outdir: SERVER_BUILD_DIR,
    entryNames: "[name]",
    chunkNames: "[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    splitting: true,
    metafile: true,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    plugins: [packagesExternal],
    tsconfig: "server/tsconfig.json",
    sourcemap: true,
    logLevel: "warning",
  }).finally(() => stop());
  const files = Object.keys(result.metafile.outputs).map((output) => output.slice(SERVER_BUILD_DIR.length + 1));
  const keep = new Set([...files, ...previous, "files.json", "migrations"]);
  for (const entry of readdirSync(SERVER_BUILD_DIR))
    if (!keep.has(entry)) rmSync(join(SERVER_BUILD_DIR, entry), { recursive: true, force: true });
  writeFileSync(MANIFEST, JSON.stringify({ files }, null, 2));
  rmSync(join(SERVER_BUILD_DIR, "migrations"), { recursive: true, force: true });
  cpSync("server/src/db/migrations", join(SERVER_BUILD_DIR, "migrations"), { recursive: true });
  // A new PGlite database's ready copy (server/src/db/initial-data.ts), made in a process of its own: initdb's
  // memory (over a gigabyte) is given back when it exits, and a server never runs initdb itself.
  const made = spawnSync(process.execPath, [join(SERVER_BUILD_DIR, "make-initial-data.mjs")], { stdio: "inherit" });
  if (made.status !== 0) throw new Error("making a new PGlite database's copy failed");
}
