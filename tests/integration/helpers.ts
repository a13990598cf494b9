/**
 * Builds the real server against a real database (an in-memory PGlite unless told otherwise, with
 * the migrations run for real), for `inject` calls. Always `close()` it: an open PGlite keeps the
 * test run alive.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp, type KassaApp } from "../../server/src/app";
import { type Clock, systemClock } from "../../server/src/clock";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { seedDemo } from "../../server/src/db/seed";
import { type Env, loadEnv } from "../../server/src/env";
import { ensureDefaultSettings } from "../../server/src/services/settings";

export const TEST_OPERATOR_TOKEN = "test-operator-token-0123456789";
/** CODE_SECRET for servers started in production mode. */
export const TEST_CODE_SECRET = "test-code-secret-0123456789abcdefghij";

export interface TestServer {
  app: KassaApp;
  handle: DatabaseHandle;
  env: Env;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Environment variables on top of NODE_ENV=test, STATIC_DIR empty (no app), DATA_DIR=memory. */
  env?: Record<string, string>;
  /** Seed the demo data (default true). */
  seed?: boolean;
  clock?: Clock;
  /** An already open database (the server then does not close it). */
  handle?: DatabaseHandle;
}

export function testEnv(vars: Record<string, string> = {}): Env {
  return loadEnv({ NODE_ENV: "test", STATIC_DIR: "", DATA_DIR: "memory", LOG_LEVEL: "silent", ...vars });
}

export async function createTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const env = testEnv(options.env);
  const clock = options.clock ?? systemClock;
  const handle = options.handle ?? (await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR }));
  try {
    await ensureDefaultSettings(handle.db, clock);
    if (options.seed ?? true) await seedDemo(handle.db, clock);
    const app = await buildApp({ env, db: handle.db, clock, logger: false, operatorToken: TEST_OPERATOR_TOKEN });
    await app.ready();
    return {
      app,
      handle,
      env,
      close: async () => {
        await app.close();
        if (!options.handle) await handle.close();
      },
    };
  } catch (error) {
    if (!options.handle) await handle.close();
    throw error;
  }
}

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(prefix = "kassa-test-"): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
