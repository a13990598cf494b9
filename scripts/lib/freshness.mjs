// Is the production build older than the sources it is built from?
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const SOURCES = ["src", "locales", "contract", "public", "index.html", "vite.config.ts", "build", "package-lock.json"];

/** The newest modification time under `path` (0 when it is missing). */
export function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

export function buildIsStale(distIndex = "dist/index.html") {
  if (!existsSync(distIndex)) return true;
  const built = statSync(distIndex).mtimeMs;
  return SOURCES.some((s) => newest(s) > built);
}
