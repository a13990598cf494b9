/**
 * `GET /app/first-screen`: the server renders the cabinet's first screen for the launcher with the first renders'
 * module of the built app in STATIC_DIR (the module itself, the app's components, is tested in
 * tests/unit/first-screen.test.tsx, and the whole way in Chromium in tests/e2e/early-balance*.test.ts). Here, with a
 * built app whose module writes out what it was given: the caller's own user and overview, the language and look
 * asked for; a new build's module taken without a restart; no markup without a built app; a refused token; 503
 * during maintenance.
 */
import fs from "node:fs";
import path from "node:path";
import { routes } from "@contract";
import { FIRST_SCREEN_MODULE } from "@contract/built-app";
import { LAUNCH_CALL_URLS } from "@contract/launch-calls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMaintenance } from "../../server/src/services/settings";
import {
  callRoute,
  createTestServer,
  injectRoute,
  registerUser,
  serverForTests,
  type TestServer,
  tempDirForTests,
} from "./helpers";

/** The launch's calls as each answers when sent alone with `token`, by URL. */
async function launchCallsAlone(server: TestServer, token: string) {
  const replies = await Promise.all(
    LAUNCH_CALL_URLS.map(async (url) => {
      const reply = await server.app.inject({ url: `/api${url}`, headers: { authorization: `Bearer ${token}` } });
      return { url, status: reply.statusCode, body: reply.json() as unknown };
    }),
  );
  return byUrl(replies);
}

function byUrl(replies: { url: string; status: number; body: unknown }[]) {
  return Object.fromEntries(replies.map(({ url, status, body }) => [url, { status, body }]));
}

const LOOK = { language: "de", appearance: "dark" } as const;

/** A built app whose first renders' module answers `version` and the screen it was asked for, as JSON. */
function writeBuiltApp(dir: string, version: string): void {
  const file = path.join(dir, FIRST_SCREEN_MODULE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>Kassa</title>");
  fs.writeFileSync(
    file,
    `export function cabinetScreen(screen) { return JSON.stringify({ version: ${JSON.stringify(version)}, screen }); }\n`,
  );
}

describe("the cabinet's first screen with a built app", () => {
  const folder = tempDirForTests("kassa-first-screen-");
  let server: TestServer;
  let token: string;
  let login: string;

  beforeAll(async () => {
    writeBuiltApp(folder.dir, "one");
    server = await createTestServer({ env: { STATIC_DIR: folder.dir } });
    const registered = await registerUser(server);
    token = registered.token;
    login = String(registered.body.login);
  });

  afterAll(async () => {
    await server?.close();
  });

  const rendered = async () => {
    const reply = await callRoute(server, "firstScreen", { token, query: LOOK });
    return { ...reply, ...(JSON.parse(String(reply.markup)) as { version: string; screen: Record<string, unknown> }) };
  };

  it("is rendered with the caller's own user and overview, in the language and the look asked for, and answers the launch's calls as they answer alone", async () => {
    const { version, screen, replies } = await rendered();
    expect(version).toBe("one");
    expect(screen).toMatchObject(LOOK);
    expect(screen.user).toEqual(await callRoute(server, "currentUser", { token }));
    expect((screen.user as { login: string }).login).toBe(login);
    expect(screen.overview).toEqual(await callRoute(server, "overview", { token }));
    expect(byUrl(replies)).toEqual(await launchCallsAlone(server, token));
  });

  it("comes from a new build's module once the build has written it, without a restart", async () => {
    writeBuiltApp(folder.dir, "two");
    // A file's modification time has a resolution of its file system's: a new one, whatever the clock did.
    const file = path.join(folder.dir, FIRST_SCREEN_MODULE);
    const later = new Date(fs.statSync(file).mtimeMs + 2_000);
    fs.utimesSync(file, later, later);
    expect((await rendered()).version).toBe("two");
  });

  it("refuses a call without a live session, and a language or look it does not know", async () => {
    expect((await injectRoute(server, routes.firstScreen, { query: LOOK })).status).toBe(401);
    expect((await injectRoute(server, routes.firstScreen, { token: "not-a-token", query: LOOK })).status).toBe(401);
    const odd = { ...LOOK, language: "fr" } as unknown as typeof LOOK;
    expect((await injectRoute(server, routes.firstScreen, { token, query: odd })).status).toBe(400);
  });

  it("answers 503 during maintenance, as every signed-in call (the app shows its maintenance screen)", async () => {
    await setMaintenance(server.handle.db, server.app.clock, { enabled: true });
    try {
      const reply = await injectRoute(server, routes.firstScreen, { token, query: LOOK });
      expect(reply.status).toBe(503);
      expect(reply.body.code).toBe("MAINTENANCE");
    } finally {
      await setMaintenance(server.handle.db, server.app.clock, { enabled: false });
    }
    expect((await rendered()).version).toBe("two");
  });
});

describe("the cabinet's first screen with a build whose module does not load", () => {
  const folder = tempDirForTests("kassa-first-screen-");
  let server: TestServer;

  beforeAll(async () => {
    // As a build copied away from the packages its module imports.
    writeBuiltApp(folder.dir, "one");
    fs.writeFileSync(path.join(folder.dir, FIRST_SCREEN_MODULE), `import "a-package-not-there";\n`);
    server = await createTestServer({ env: { STATIC_DIR: folder.dir } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("is no markup, and the replies it carries still come", async () => {
    const { token } = await registerUser(server);
    const reply = await callRoute(server, "firstScreen", { token, query: LOOK });
    expect(reply.markup).toBeNull();
    expect(byUrl(reply.replies)).toEqual(await launchCallsAlone(server, token));
  });
});

describe("the cabinet's first screen without a built app", () => {
  let server: TestServer;
  serverForTests({}, (made) => {
    server = made;
  });

  it("is no markup (the launcher paints nothing; the app starts as it would), with the replies it carries", async () => {
    const { token } = await registerUser(server);
    const reply = await callRoute(server, "firstScreen", { token, query: LOOK });
    expect(reply.markup).toBeNull();
    expect(byUrl(reply.replies)).toEqual(await launchCallsAlone(server, token));
  });
});
