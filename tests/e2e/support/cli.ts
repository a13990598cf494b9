/**
 * Runs the operator CLI (`npm run kassa -- …`) against a running e2e server, as an operator would:
 * the real commands (`runCli`, what the entry runs), in this process with the server's environment,
 * so they find the server through its data folder and reach it over HTTP. No Node process and
 * TypeScript loader per command (seconds each); the spawned entry is proved by the integration tests.
 */
import { runCli } from "../../../server/src/cli/program";
import { apiCall } from "./api";
import { e2eServer } from "./worker-server";

/** The command's standard output; a non-zero exit throws with what it wrote to standard error. */
export async function kassaWith(env: Record<string, string>, ...args: string[]): Promise<string> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(["node", "kassa", ...args], {
    env: { ...process.env, ...env },
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
  });
  if (code !== 0) throw new Error(`kassa ${args.join(" ")} exited with ${code}: ${stderr}`);
  return stdout;
}

/** `kassaWith` against this worker's server. */
export function kassaCli(...args: string[]): Promise<string> {
  return kassaWith(e2eServer().env, ...args);
}

/**
 * A refill of `amount` USDT (TRC-20) made by the investor of `token` through the API and confirmed by the
 * operator's CLI: the balance credited and a `refill_credited` notification written. Returns the refill's id.
 */
export async function creditedRefill(token: string, amount: string): Promise<string> {
  const { id } = await apiCall("createRefill", { body: { paymentSystemId: "usdt-trc20", amount }, token });
  await kassaCli("refill", "confirm", id);
  return id;
}
