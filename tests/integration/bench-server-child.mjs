// A benchmark in miniature for bench-server.test.ts: starts Kassa with the benchmarks' `startKassa`, says the
// server's pid on stdout, then throws (argument "throw") once the test has seen the server run and writes a line to
// its stdin, or waits until it is stopped.
import { once } from "node:events";
import { startKassa } from "../../scripts/lib/demo-server.mjs";

const kassa = await startKassa({ quiet: true, env: { STATIC_DIR: "" } });
console.log(`server ${kassa.pid}`);
if (process.argv[2] === "throw") {
  await once(process.stdin, "data");
  throw new Error("the benchmark failed");
}
setInterval(() => undefined, 60_000);
