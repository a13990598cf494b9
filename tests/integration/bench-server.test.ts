/**
 * A benchmark's Kassa server ends with the benchmark (`scripts/lib/demo-server.mjs`): the server is a process of its
 * own, and one left behind by a benchmark that threw or was interrupted kept running with init as its parent. Here a
 * miniature benchmark (`bench-server-child.mjs`) starts the server as every benchmark does, then throws, or is sent
 * SIGTERM or SIGINT; the server must be gone after it (no process, or one that has exited and waits to be reaped).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { until } from "./helpers";

const CHILD = fileURLToPath(new URL("./bench-server-child.mjs", import.meta.url));

/** Whether process `pid` still runs: its /proc entry exists and it is not a zombie (state Z: it has exited). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** Starts the miniature benchmark; resolves with it and its server's pid once the server is up. */
async function benchmark(
  mode: "throw" | "wait",
): Promise<{ child: ChildProcess; server: number; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, [CHILD, mode], { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  await until("the benchmark's server started", () => /server \d+/.test(output) || child.exitCode !== null, 120_000);
  const server = Number(/server (\d+)/.exec(output)?.[1]);
  if (!server) throw new Error(`the benchmark did not start its server: ${output}`);
  expect(running(server)).toBe(true);
  return { child, server, exited };
}

describe("a benchmark's server", () => {
  it("ends when the benchmark throws", async () => {
    const { child, server, exited } = await benchmark("throw");
    // It throws once told: a throw right after its server started could end the server before the test saw it run.
    child.stdin?.write("throw\n");
    await exited;
    await until("the server ended", () => !running(server), 30_000);
  }, 180_000);

  it.each(["SIGTERM", "SIGINT"] as const)(
    "ends when the benchmark is sent %s",
    async (signal) => {
      const { child, server, exited } = await benchmark("wait");
      child.kill(signal);
      await exited;
      await until("the server ended", () => !running(server), 30_000);
    },
    180_000,
  );
});
