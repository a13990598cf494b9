// How `npm start` runs the server: the Node options and script of package.json's "start" script
// ("node <options…> scripts/start.mjs"), read from the checkout being started. The benchmarks
// start the server the same way without npm's own process in the tree; a checkout from before the
// options gives just the script.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The arguments to give `process.execPath` to start `dir`'s server as its `npm start` does. */
export function startArguments(dir) {
  const script = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).scripts?.start ?? "";
  const [command, ...args] = script.trim().split(/\s+/);
  if (command !== "node" || !args.at(-1)?.endsWith(".mjs"))
    throw new Error(`package.json's start script is not "node [options] <script>.mjs": ${script}`);
  return args;
}
