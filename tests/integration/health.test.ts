/**
 * Liveness and readiness (docs/decisions.md#several-instances): `/api/health` answers while the process runs,
 * whatever the database does; `/api/health/ready` touches the database and answers 503 when it cannot.
 */
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../server/src/db/client";
import { createTestServer, pgliteTemplate } from "./helpers";

describe("health and readiness", () => {
  it("is live and ready with its database, live but not ready without it", async () => {
    const handle = await openDatabase({ dataDir: "memory", initialData: pgliteTemplate("migrated") });
    const server = await createTestServer({ handle, seed: false });
    try {
      const live = await server.app.inject({ method: "GET", url: "/api/health" });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ ok: true });
      const ready = await server.app.inject({ method: "GET", url: "/api/health/ready" });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ ok: true, database: "up" });
      // What each cache holds and how often it answered (db/change-feed.ts).
      expect(ready.json().caches.sessions).toEqual({ hits: 0, misses: 0, entries: 0, kB: 0 });

      // The database goes away under the running server.
      await handle.close();
      const notReady = await server.app.inject({ method: "GET", url: "/api/health/ready" });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toEqual({ ok: false, database: "down" });
      expect((await server.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    } finally {
      await server.close();
      await handle.close();
    }
  });

  it("documents both in the OpenAPI document", async () => {
    const server = await createTestServer({ seed: false });
    try {
      const doc = (await server.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/health", "/api/health/ready"]));
    } finally {
      await server.close();
    }
  });
});
