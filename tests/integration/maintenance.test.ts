/**
 * The operator switches maintenance on and off and the app sees it in GET /settings/technical_work:
 * through the service, through the operator endpoint, and through the real CLI process, both
 * while a server holds the embedded database (the CLI then talks to it over HTTP) and while no
 * server runs (the CLI opens the database itself).
 */
import fs from "node:fs";
import path from "node:path";
import { operatorRoutes } from "@contract/operator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import { readRuntimeInfo } from "../../server/src/operator/runtime";
import { getSetting, setMaintenance } from "../../server/src/services/settings";
import { kassa, serverForCli } from "./cli";
import {
  callRoute,
  createTestServer,
  injectRoute,
  TEST_OPERATOR_TOKEN,
  type TestServer,
  tempDirForTests,
} from "./helpers";

/** Runs `npm run kassa -- <args>` as the operator would (same entry, same environment rules). */
async function technicalWork(server: TestServer) {
  return callRoute(server, "technicalWork");
}

describe("maintenance through the service and the operator endpoint", () => {
  let server: TestServer;
  const clock = fixedClock("2026-05-01T08:00:00Z");

  beforeAll(async () => {
    server = await createTestServer({ clock });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("shows a notice switched on by the service, with the note completed in every language", async () => {
    await setMaintenance(server.handle.db, clock, {
      enabled: true,
      until: "2026-05-01T10:00:00.000Z",
      message: { en: "Upgrading the ledger", ru: "Обновляем учёт" },
    });
    expect(await technicalWork(server)).toEqual({
      enabled: true,
      until: "2026-05-01T10:00:00.000Z",
      message: {
        en: "Upgrading the ledger",
        ru: "Обновляем учёт",
        de: "Upgrading the ledger",
        kk: "Upgrading the ledger",
      },
    });
    await setMaintenance(server.handle.db, clock, { enabled: false });
    expect(await technicalWork(server)).toEqual({ enabled: false, message: null, until: null });
  });

  it("hides the operator endpoint from callers without the operator token", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0000000000", `Basic ${TEST_OPERATOR_TOKEN}`]) {
      const res = await injectRoute(server, operatorRoutes.maintenance, {
        headers: authorization ? { authorization } : {},
        body: { enabled: true },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
    expect((await technicalWork(server)).enabled).toBe(false);
  });

  it("switches maintenance with the operator token", async () => {
    const token = TEST_OPERATOR_TOKEN;
    const on = await injectRoute(server, operatorRoutes.maintenance, {
      token,
      body: { enabled: true, message: { de: "Wartung" } },
    });
    expect(on.status).toBe(200);
    expect(await technicalWork(server)).toEqual({
      enabled: true,
      until: null,
      message: { en: "Wartung", ru: "Wartung", de: "Wartung", kk: "Wartung" },
    });

    const bad = await injectRoute(server, operatorRoutes.maintenance, {
      token,
      body: { enabled: true, until: "tomorrow" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { until: "required" } });

    const off = await injectRoute(server, operatorRoutes.maintenance, { token, body: { enabled: false } });
    expect(off.status).toBe(200);
    expect((await technicalWork(server)).enabled).toBe(false);
  });

  it("reads and writes settings, refusing values of the wrong shape", async () => {
    const token = TEST_OPERATOR_TOKEN;
    const referralLines = { key: "referralLines" };
    const put = await injectRoute(server, operatorRoutes.setSetting, {
      token,
      params: referralLines,
      body: { value: ["7", "2"] },
    });
    expect(put.body).toEqual({ key: "referralLines", value: ["7", "2"] });
    expect(await callRoute(server, "setting", { params: { key: "referralLines" } })).toEqual({
      key: "referralLines",
      value: ["7", "2"],
    });

    const wrong = await injectRoute(server, operatorRoutes.setSetting, {
      token,
      params: referralLines,
      body: { value: [7] },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: "VALIDATION_FAILED" });

    const codes = await injectRoute(server, operatorRoutes.getSetting, { token, params: { key: "codes" } });
    expect(codes.body).toEqual({
      key: "codes",
      value: { digits: 6, ttlSeconds: 600, resendSeconds: 60, maxAttempts: 5 },
    });
  });
});

describe("npm run kassa -- maintenance", () => {
  const tmp = tempDirForTests();
  let dataDir: string;

  beforeAll(() => {
    dataDir = path.join(tmp.dir, "pglite");
  });

  it("reaches a running server that holds the database folder, and the app sees the change", async () => {
    // A server as main.ts runs it: the folder locked by this process, its address left beside it.
    const { server, address, close } = await serverForCli(dataDir);
    try {
      expect(readRuntimeInfo(dataDir)?.url).toBe(address);

      const on = await kassa(
        [
          "maintenance",
          "on",
          "--until",
          "2026-06-01T12:00:00Z",
          "--message-en",
          "Back at noon",
          "--message-kk",
          "Түсте ораламыз",
        ],
        { DATA_DIR: dataDir },
      );
      // The CLI always says which database it acts on.
      expect(on.stderr).toBe(`kassa: acting on the running server (pid ${process.pid}) at ${address}\n`);
      expect(on.code).toBe(0);
      expect(on.stdout).toContain("Maintenance is on until 2026-06-01T12:00:00.000Z");
      expect(on.stdout).toContain("via the running server");
      expect(await technicalWork(server)).toEqual({
        enabled: true,
        until: "2026-06-01T12:00:00.000Z",
        message: { en: "Back at noon", ru: "Back at noon", de: "Back at noon", kk: "Түсте ораламыз" },
      });

      const off = await kassa(["maintenance", "off"], { DATA_DIR: dataDir });
      expect(off.code).toBe(0);
      expect((await technicalWork(server)).enabled).toBe(false);
    } finally {
      await close();
    }
  });

  it("opens the database itself when no server runs", async () => {
    const set = await kassa(["settings", "set", "telegramAuthAvailable", "false"], { DATA_DIR: dataDir });
    expect(set.code).toBe(0);
    expect(set.stdout).toContain("telegramAuthAvailable = false");
    expect(set.stderr).toBe(`kassa: acting on PGlite at ${dataDir} (no server holds it)\n`);
    const on = await kassa(["maintenance", "on", "--message", "Planned work"], { DATA_DIR: dataDir });
    expect(on.code).toBe(0);

    const handle = await openDatabase({ dataDir });
    try {
      expect(await getSetting(handle.db, "telegramAuthAvailable")).toBe(false);
      expect((await getSetting(handle.db, "technicalWork")).message?.ru).toBe("Planned work");
    } finally {
      await handle.close();
    }
  });

  it("explains a refused command and exits non-zero", async () => {
    const wrongValue = await kassa(["settings", "set", "codes", '{"digits": 6}'], { DATA_DIR: dataDir });
    expect(wrongValue.code).toBe(1);
    expect(wrongValue.stderr).toContain("VALIDATION_FAILED");
    const unknownKey = await kassa(["settings", "get", "nope"], { DATA_DIR: dataDir });
    expect(unknownKey.code).not.toBe(0);
    expect(unknownKey.stderr).toContain("unknown setting");
  });

  it("never creates a database: another DATA_DIR than the server's is refused, and nothing is made there", async () => {
    const elsewhere = path.join(tmp.dir, "not-the-servers-folder");
    const run = await kassa(["maintenance", "on", "--message", "Planned work"], { DATA_DIR: elsewhere });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`there is no Kassa database at ${elsewhere}`);
    expect(run.stdout).toBe("");
    expect(fs.existsSync(elsewhere)).toBe(false);
    expect(fs.existsSync(`${elsewhere}.lock`)).toBe(false);
  });
});
