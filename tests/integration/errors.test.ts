/** Every failure reaches the client as the contract's error body, and nothing internal leaks. */
import { ApiErrorBody } from "@contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp } from "../../server/src/app";
import { AppError } from "../../server/src/errors";
import { createTestServer, type TestServer } from "./helpers";

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({ seed: false });
});

afterAll(async () => {
  await server?.close();
});

describe("error replies", () => {
  let app: TestServer["app"];

  beforeAll(async () => {
    // A second instance on the same database, with routes that fail on purpose.
    app = await buildApp({ env: server.env, db: server.handle.db, logger: false });
    app.get("/api/test/boom", async () => {
      throw new Error('relation "secret_table" does not exist at /srv/kassa/server.ts:42');
    });
    app.get("/api/test/app-error", async () => {
      throw new AppError("UPDATE_FAILED", { params: { error: "disk full" } });
    });
    app.get(
      "/api/test/bad-reply",
      { schema: { response: { 200: z.object({ amount: z.string() }) } } },
      // A handler breaking the contract: an amount as a JSON number.
      async () => ({ amount: 12.5 }) as unknown as { amount: string },
    );
    app.post(
      "/api/test/form",
      {
        schema: {
          body: z.object({
            login: z.string().min(1),
            email: z.email(),
            amount: z.string().regex(/^\d+$/, { message: "decimal" }),
            nested: z.object({ phone: z.string() }),
          }),
        },
      },
      async () => ({ ok: true }),
    );
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
  });

  it("answers an unknown /api route with 404 NOT_FOUND", async () => {
    for (const [method, url] of [
      ["GET", "/api/no/such/route"],
      ["POST", "/api/settings"],
      ["GET", "/api"],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
  });

  it("answers an unexpected error with 500 INTERNAL and the generic message, leaking nothing", async () => {
    const res = await app.inject({ method: "GET", url: "/api/test/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: "INTERNAL", message: "An error occurred, try again later" });
    expect(res.body).not.toMatch(/secret_table|server\.ts|stack|relation/);
  });

  it("never sends a reply that breaks the contract's schema: 500 INTERNAL instead", async () => {
    const res = await app.inject({ method: "GET", url: "/api/test/bad-reply" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: "INTERNAL", message: "An error occurred, try again later" });
  });

  it("answers an AppError with its catalogue status, code and filled message", async () => {
    const res = await app.inject({ method: "GET", url: "/api/test/app-error" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: "UPDATE_FAILED",
      message: "Update error disk full",
      params: { error: "disk full" },
    });
  });

  it("answers a request that fails its schema with 400 VALIDATION_FAILED and a code per field", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/test/form",
      payload: { login: "", email: "not-an-email", amount: "1.5x" },
    });
    expect(res.statusCode).toBe(400);
    const body = ApiErrorBody.parse(res.json());
    expect(body).toEqual({
      code: "VALIDATION_FAILED",
      message: "Check the marked fields",
      fields: { login: "required", email: "emailInvalid", amount: "decimal", nested: "required" },
    });
  });

  it("answers malformed JSON with 400 VALIDATION_FAILED", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/test/form",
      headers: { "content-type": "application/json" },
      payload: '{"login": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: "VALIDATION_FAILED", message: "Check the marked fields" });
  });

  it("validates query strings of the live routes the same way", async () => {
    const res = await server.app.inject({ method: "GET", url: "/api/dev/telegram-launch?platform=toaster" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "VALIDATION_FAILED", fields: { platform: "required" } });
  });
});
