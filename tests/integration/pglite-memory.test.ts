/**
 * The embedded database's own memory: PGlite runs PostgreSQL inside the server's process, so its
 * shared buffers count in the server's memory (server/README.md, "Performance"). The server opens
 * it with a smaller pool than PostgreSQL's default, and with pg_trgm (the partners search).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase, PGLITE_SHARED_BUFFERS } from "../../server/src/db/client";
import { resultRows } from "../../server/src/db/rows";
import { pgliteTemplate, tempDir } from "./helpers";

describe("PGlite as the server opens it", () => {
  const folder = tempDir();
  let handle: DatabaseHandle;

  beforeAll(async () => {
    // A new folder from the migrated copy, as the server's starts from the build's (main.ts), not initdb.
    handle = await openDatabase({ dataDir: folder.dir, initialData: pgliteTemplate("migrated") });
  });
  afterAll(async () => {
    await handle?.close();
    folder.remove();
  });

  it("keeps 32 MB of shared buffers, not PostgreSQL's 128 MB, and has pg_trgm", async () => {
    const [buffers] = resultRows<{ shared_buffers: string }>(await handle.db.execute(sql`show shared_buffers`));
    expect(PGLITE_SHARED_BUFFERS).toBe("32MB");
    expect(buffers?.shared_buffers).toBe("32MB");
    const extensions = resultRows<{ extname: string }>(await handle.db.execute(sql`select extname from pg_extension`));
    expect(extensions.map((e) => e.extname)).toContain("pg_trgm");
  });

  it("opens the folder again with the same settings", async () => {
    await handle.close();
    handle = await openDatabase({ dataDir: folder.dir });
    const [buffers] = resultRows<{ shared_buffers: string }>(await handle.db.execute(sql`show shared_buffers`));
    expect(buffers?.shared_buffers).toBe("32MB");
  });
});
