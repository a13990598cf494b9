/**
 * Uploads leave no files behind: parallel avatar uploads of one investor leave exactly the file
 * the user points at (on PGlite, and on PostgreSQL through two instances sharing UPLOAD_DIR), the
 * sweeper removes files nothing references once they are old enough, and each investor may upload
 * only so often (RATE_LIMIT_UPLOAD_ACCOUNT).
 */
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { users } from "../../server/src/db/schema";
import { sweep } from "../../server/src/scheduler";
import { createTestServer, registerUser, type TestServer, tempDir } from "./helpers";
import { freshPostgres, POSTGRES_SKIP_REASON, TEST_DATABASE_URL } from "./money";
import { multipart, tinyPng } from "./multipart";

function uploadAvatar(server: TestServer, token: string) {
  const { payload, contentType } = multipart([
    { name: "avatar", filename: "me.png", type: "image/png", data: tinyPng() },
  ]);
  return server.app.inject({
    method: "PATCH",
    url: "/api/user/avatar",
    payload,
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
  });
}

const avatarFiles = (uploadDir: string) => fs.readdirSync(path.join(uploadDir, "avatars")).sort();

async function avatarOf(server: TestServer, login: string): Promise<string | null> {
  const [row] = await server.handle.db.select({ file: users.avatarFile }).from(users).where(eq(users.login, login));
  return row?.file ?? null;
}

describe("parallel avatar uploads, on PGlite", () => {
  const uploads = tempDir("kassa-orphans-");
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({ env: { UPLOAD_DIR: uploads.dir, RATE_LIMIT_UPLOAD_ACCOUNT: "off" } });
  });
  afterAll(async () => {
    await server.close();
    uploads.remove();
  });

  it("leave exactly the one file the user points at", async () => {
    const { body, token } = await registerUser(server);
    const replies = await Promise.all(Array.from({ length: 80 }, () => uploadAvatar(server, token)));
    expect(replies.map((r) => r.statusCode)).toEqual(replies.map(() => 200));
    const current = await avatarOf(server, body.login);
    expect(current).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(avatarFiles(uploads.dir)).toEqual([current]);
  });

  it("the sweeper removes old files nothing references, and nothing else", async () => {
    const { body, token } = await registerUser(server);
    expect((await uploadAvatar(server, token)).statusCode).toBe(200);
    const kept = await avatarOf(server, body.login);
    const folder = path.join(uploads.dir, "avatars");
    const write = (name: string, hoursOld: number) => {
      const file = path.join(folder, name);
      fs.writeFileSync(file, tinyPng());
      const at = new Date(Date.now() - hoursOld * 3600_000);
      fs.utimesSync(file, at, at);
    };
    write("0123456789abcdef0123456789abcdef.png", 2); // an orphan of a crash two hours ago
    write(".fedcba9876543210fedcba9876543210.jpg.tmp", 2); // an upload cut off while written
    write("00000000000000000000000000000000.jpg", 0); // an upload whose row may be on its way
    write("README.txt", 2); // not a name of ours
    // The referenced file is old too: age alone removes nothing.
    fs.utimesSync(path.join(folder, kept as string), new Date(0), new Date(0));
    const before = avatarFiles(uploads.dir);

    const run = await sweep({ db: server.handle.db, clock: systemClock, uploadDir: uploads.dir });
    expect(run.uploadsRemoved).toBe(2);
    const after = avatarFiles(uploads.dir);
    expect(before.filter((name) => !after.includes(name)).sort()).toEqual([
      ".fedcba9876543210fedcba9876543210.jpg.tmp",
      "0123456789abcdef0123456789abcdef.png",
    ]);
    expect(after).toEqual(expect.arrayContaining([kept, "00000000000000000000000000000000.jpg", "README.txt"]));
    // Served as before.
    const served = await server.app.inject({ method: "GET", url: `/api/user/avatar/${kept}` });
    expect(served.statusCode).toBe(200);
  });
});

describe("the upload limit per investor", () => {
  const uploads = tempDir("kassa-upload-limit-");
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({ env: { UPLOAD_DIR: uploads.dir, RATE_LIMIT_UPLOAD_ACCOUNT: "3/3600" } });
  });
  afterAll(async () => {
    await server.close();
    uploads.remove();
  });

  it("refuses the upload past the limit before storing anything, and only for that investor", async () => {
    const a = await registerUser(server);
    const b = await registerUser(server);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await uploadAvatar(server, a.token)).statusCode);
    const refused = await uploadAvatar(server, a.token);
    expect([...statuses, refused.statusCode]).toEqual([200, 200, 200, 429]);
    expect(refused.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3000);
    expect((await uploadAvatar(server, b.token)).statusCode).toBe(200);
    // A's last accepted file and B's: nothing more was written.
    expect(avatarFiles(uploads.dir)).toEqual(
      [await avatarOf(server, a.body.login), await avatarOf(server, b.body.login)].sort(),
    );
  });
});

describe.skipIf(!TEST_DATABASE_URL)(
  `parallel avatar uploads, two instances on PostgreSQL${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    const uploads = tempDir("kassa-orphans-pg-");
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let handles: DatabaseHandle[] = [];
    let a: TestServer;
    let b: TestServer;

    beforeAll(async () => {
      database = await freshPostgres("orphans");
      handles = [await openDatabase({ databaseUrl: database.url }), await openDatabase({ databaseUrl: database.url })];
      const env = { UPLOAD_DIR: uploads.dir, RATE_LIMIT_UPLOAD_ACCOUNT: "off" };
      a = await createTestServer({ handle: handles[0], env });
      b = await createTestServer({ handle: handles[1], env, seed: false });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      for (const handle of handles) await handle.close();
      await database?.drop();
      uploads.remove();
    });

    it("leave exactly the one file the user points at", async () => {
      const { body, token } = await registerUser(a);
      const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => uploadAvatar(i % 2 === 0 ? a : b, token)));
      expect(replies.map((r) => r.statusCode)).toEqual(replies.map(() => 200));
      const current = await avatarOf(a, body.login);
      expect(current).toMatch(/^[0-9a-f]{32}\.png$/);
      expect(avatarFiles(uploads.dir)).toEqual([current]);
    });
  },
);
