/** Runs the operator CLI (`npm run kassa -- …`) against the e2e server, as an operator would. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { inject } from "vitest";

const run = promisify(execFile);

export async function kassaCli(...args: string[]): Promise<string> {
  const { stdout } = await run("node_modules/.bin/tsx", ["server/src/cli/index.ts", ...args], {
    env: { ...process.env, ...inject("serverEnv") },
    timeout: 60_000,
  });
  return stdout;
}
