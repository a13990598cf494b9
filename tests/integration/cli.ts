/**
 * The operator CLI as the tests run it. `kassa` runs the real commands (the same `runCli` the
 * `npm run kassa` entry calls) inside the test's process, with an environment and output buffers of
 * its own: a few milliseconds instead of a few seconds for a Node process and TypeScript loader.
 * `kassaProcess` spawns the real entry once in a while, so the process path (argv, exit code,
 * output streams) stays proved too.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { runCli } from "../../server/src/cli/program";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { removeRuntimeInfo, writeRuntimeInfo } from "../../server/src/operator/runtime";
import { copyTemplateFolder, createTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "./helpers";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const ENTRY = path.join(ROOT, "server/src/cli/index.ts");

/** The environment a command sees: the test's own minus where a database or server is, plus `env`. */
function cliEnv(env: Record<string, string>): Record<string, string | undefined> {
  const clean: Record<string, string | undefined> = { ...process.env };
  for (const name of ["DATABASE_URL", "OPERATOR_TOKEN", "KASSA_SERVER_URL", "DATA_DIR"]) delete clean[name];
  return { ...clean, NODE_ENV: "development", ...env };
}

/** `npm run kassa -- <args>` in this process. */
export async function kassa(args: string[], env: Record<string, string>): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(["node", "kassa", ...args], {
    env: cliEnv(env),
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
  });
  return { code, stdout, stderr };
}

/** What the command's process loaded (module-log.mjs): a line per module, out of its standard error. */
const MODULE_LOG = fileURLToPath(new URL("./module-log.mjs", import.meta.url));

/**
 * `npm run kassa -- <args>` as its own process (seconds: keep to a smoke test), with the modules its processes
 * loaded (`modules`, their URLs) apart from what it wrote to standard error.
 */
export async function kassaProcess(
  args: string[],
  env: Record<string, string>,
): Promise<CliResult & { modules: string[] }> {
  const split = (result: CliResult) => {
    const lines = result.stderr.split(/(?<=\n)/);
    const logged = (line: string) => line.startsWith("[module] ");
    return {
      ...result,
      stderr: lines.filter((line) => !logged(line)).join(""),
      modules: lines.filter(logged).map((line) => line.slice("[module] ".length).trim()),
    };
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [TSX, ENTRY, ...args], {
      cwd: ROOT,
      // In NODE_OPTIONS: tsx runs the entry in a process of its own.
      env: { ...cliEnv(env), NODE_OPTIONS: `--import=${MODULE_LOG}` },
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return split({ code: 0, stdout, stderr });
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return split({ code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" });
  }
}

export interface ServerForCli {
  server: TestServer;
  handle: DatabaseHandle;
  /** Where it listens. */
  address: string;
  /** Removes the running server's note, closes the server and the folder. */
  close(): Promise<void>;
}

/**
 * A test server on the PGlite folder `dataDir` (opened here; `seed` as createTestServer's), listening on 127.0.0.1 and
 * its address and operator token written beside the folder, as main.ts does: the CLI on that folder acts through it.
 */
export async function serverForCli(dataDir: string, options: { seed?: boolean } = {}): Promise<ServerForCli> {
  // A new folder: a copy of the run's migrated one, as a server's starts from the build's ready copy (not initdb).
  copyTemplateFolder("migrated", dataDir);
  const handle = await openDatabase({ dataDir });
  const server = await createTestServer({ handle, ...options });
  const close = async () => {
    removeRuntimeInfo(dataDir);
    await server.close();
    await handle.close();
  };
  try {
    const address = await server.app.listen({ host: "127.0.0.1", port: 0 });
    writeRuntimeInfo(dataDir, { pid: process.pid, url: address, token: TEST_OPERATOR_TOKEN });
    return { server, handle, address, close };
  } catch (error) {
    await close();
    throw error;
  }
}
