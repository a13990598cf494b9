/**
 * The OpenAPI document as other tools read it: lint-clean under Redocly's recommended rules (in
 * development, with the operator and development calls, and in production without them), every call
 * named by its contract entry, and a client generated from it that compiles and names each call.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { routes } from "@contract";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/src/db/client";
import { createTestServer, openTestDatabase, TEST_CODE_SECRET } from "./helpers";

type Doc = { paths: Record<string, Record<string, { operationId?: string; security?: unknown[] }>> };

/**
 * The database of the servers below, one after another: what the document says depends on the server's
 * environment, not on what its database holds.
 */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase("migrated");
});
afterAll(async () => {
  await handle?.close();
});

async function documentOf(env: Record<string, string> = {}): Promise<{ source: string; doc: Doc }> {
  const server = await createTestServer({ seed: false, env, handle });
  try {
    const reply = await server.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(reply.statusCode).toBe(200);
    return { source: reply.body, doc: reply.json() as Doc };
  } finally {
    await server.close();
  }
}

async function problemsOf(source: string): Promise<string[]> {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source, absoluteRef: "kassa-openapi.json", config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ""})`);
}

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, ...op })),
  );

describe("the OpenAPI document", () => {
  it("is lint-clean under Redocly's recommended rules, in development and in production", async () => {
    const dev = await documentOf();
    expect(await problemsOf(dev.source)).toEqual([]);
    const production = await documentOf({
      NODE_ENV: "production",
      TELEGRAM_BOT_TOKEN: "7000000001:AAF-test-token-for-kassa-integration-tests",
      CODE_SECRET: TEST_CODE_SECRET,
      API_DOCS: "true",
    });
    expect(await problemsOf(production.source)).toEqual([]);
  });

  it("names every contract call by its entry, once, and says which calls are public", async () => {
    const { doc } = await documentOf();
    const ops = operations(doc);
    const ids = ops.map((op) => op.operationId);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Every contract entry is one operation of the document, under its own name.
    for (const [name, def] of Object.entries(routes)) {
      const op = ops.find((o) => o.operationId === name);
      expect(op, name).toBeDefined();
      expect(op?.method).toBe(def.method.toLowerCase());
      // A public call says so with an empty security list; a signed-in one names the bearer token.
      if (def.auth === false) expect(op?.security, name).toEqual([]);
      if (def.auth === true) expect(op?.security, name).toEqual([{ bearer: [] }]);
    }
    expect(Object.keys(doc.paths).filter((p) => p.endsWith("/"))).toEqual([]);
  });

  it("generates a typed client that compiles and names each call", async () => {
    const { source } = await documentOf();
    const types = astToString(await openapiTS(source));
    const dir = mkdtempSync(join(tmpdir(), "kassa-openapi-client-"));
    try {
      writeFileSync(join(dir, "api.d.ts"), types);
      // A call named by its operation: its request body and its 200 reply come from the document.
      writeFileSync(
        join(dir, "client.ts"),
        [
          'import type { operations } from "./api";',
          'type Body<N extends keyof operations> = operations[N] extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;',
          'type Reply<N extends keyof operations> = operations[N] extends { responses: { 200: { content: { "application/json": infer R } } } } ? R : never;',
          "export async function call<N extends keyof operations>(name: N, url: string, body?: Body<N>): Promise<Reply<N>> {",
          '  const reply = await fetch(url, { method: body === undefined ? "GET" : "POST", body: JSON.stringify(body) });',
          "  return (await reply.json()) as Reply<N>;",
          "}",
          'export const refill = (amount: string) => call("createRefill", "/api/funds/refills", { amount, paymentSystemId: "usdt-trc20" });',
          "// @ts-expect-error: a call the document does not name",
          'export const unknown = () => call("noSuchCall", "/api/nothing");',
          "// @ts-expect-error: a field the call does not take",
          'export const wrong = () => call("createRefill", "/api/funds/refills", { amount: "1", currency: "USDT" });',
          "",
        ].join("\n"),
      );
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: "ES2022",
            module: "ESNext",
            lib: ["ES2023", "DOM"],
            skipLibCheck: false,
          },
          files: ["client.ts"],
        }),
      );
      // TypeScript 7, as the project's own type check (openapi-typescript itself runs on TypeScript 5's API).
      const tsc = join(process.cwd(), "node_modules", "typescript7", "bin", "tsc");
      let output = "";
      try {
        execFileSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
