// A throw-away PostgreSQL server for the tests: initdb in a temporary folder, trust auth on loopback,
// a free port. Root cannot run PostgreSQL, so as root the server runs as the `postgres` user.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.mjs";

export { freePort };

export async function startPostgres(bin) {
  const isRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "kassa-pg-"));
  const data = join(dir, "data");
  const port = await freePort();
  const asPg = (cmd, args) => (isRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args]);
  if (isRoot) {
    chmodSync(dir, 0o777);
  }
  const exec = (cmd, args) => {
    const [c, a] = asPg(cmd, args);
    execFileSync(c, a, { stdio: ["ignore", "ignore", "inherit"] });
  };
  exec(`${bin}/initdb`, ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  exec(`${bin}/pg_ctl`, [
    "-D",
    data,
    "-l",
    join(dir, "server.log"),
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
    "start",
  ]);
  exec(`${bin}/createdb`, ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "kassa_test"]);
  const url = `postgres://postgres@127.0.0.1:${port}/kassa_test`;
  return {
    url,
    stop() {
      const [c, a] = asPg(`${bin}/pg_ctl`, ["-D", data, "-m", "immediate", "stop"]);
      spawnSync(c, a, { stdio: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
