/**
 * What the server does around the API: the OpenAPI document (off in production unless API_DOCS),
 * security headers (HSTS only over https), the catalogue's body for a URL Fastify cannot decode,
 * and serving the built app with SPA fallback and the right cache headers.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { routes } from "@contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestServer, injectRoute, TEST_CODE_SECRET, type TestServer, tempDir } from "./helpers";

/** The launcher the build writes into index.html, inline (build/launch-preload.ts): allowed by its hash. */
const INLINE_SCRIPT = 'window.__launched = "</b>";';
const INDEX_HTML = `<!doctype html><html><head><script type="module" async>${INLINE_SCRIPT}</script><script type="module" src="/assets/app-4f3a2b1c.js"></script></head><body><div id="root"></div></body></html>`;

let server: TestServer;
let dist: ReturnType<typeof tempDir>;

beforeAll(async () => {
  dist = tempDir("kassa-dist-");
  fs.writeFileSync(path.join(dist.dir, "index.html"), INDEX_HTML);
  fs.mkdirSync(path.join(dist.dir, "assets"));
  fs.writeFileSync(path.join(dist.dir, "assets", "app-4f3a2b1c.js"), `console.log("kassa");\n${"//".repeat(800)}\n`);
  // The build's Brotli copy beside the file (build/precompress.ts); its bytes tell which one a reply sent.
  fs.writeFileSync(path.join(dist.dir, "assets", "app-4f3a2b1c.js.br"), "brotli bytes");
  fs.writeFileSync(path.join(dist.dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  fs.writeFileSync(path.join(dist.dir, ".env"), "SECRET=kassa");
  server = await createTestServer({ env: { STATIC_DIR: dist.dir } });
});

afterAll(async () => {
  await server?.close();
  dist?.remove();
});

const UPLOAD_ROUTES = new Set(["updateAvatar", "requestVerification"]);

async function uploadWithoutSession(method: string, path: string) {
  const res = await server.app.inject({
    method: method as "PATCH",
    url: `/api${path}`,
    headers: { "content-type": "multipart/form-data; boundary=kassa", "content-length": "10" },
    payload: "0123456789",
    remoteAddress: "192.0.2.200",
  });
  return { status: res.statusCode, body: res.json() as { code?: string } };
}

describe("OpenAPI", () => {
  it("lists every live settings call under /api, generated from the contract's schemas", async () => {
    const res = await server.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    // The document names each path without a trailing slash (the router ignores it).
    const expected = Object.values(routes).map(
      (r) => `/api${r.path.replace(/:(\w+)/g, "{$1}").replace(/(.)\/$/, "$1")}`,
    );
    for (const p of [...expected, "/api/health"]) expect(Object.keys(doc.paths)).toContain(p);
    const plans = doc.paths["/api/settings_other/plans/available"]?.get as {
      responses: Record<string, { content: Record<string, { schema: { type: string; items: unknown } }> }>;
    };
    expect(plans.responses["200"]?.content["application/json"]?.schema.type).toBe("array");
  });

  it("documents each contract route with its method, tags and the security its auth flag implies", async () => {
    const doc = (await server.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; security?: Record<string, string[]>[] }>>;
    };
    for (const [name, route] of Object.entries(routes)) {
      const op =
        doc.paths[`/api${route.path.replace(/:(\w+)/g, "{$1}").replace(/(.)\/$/, "$1")}`]?.[route.method.toLowerCase()];
      expect(op, name).toBeDefined();
      expect(op?.tags, name).toEqual(expect.arrayContaining([...route.tags]));
      // A public call says so with an empty list (OpenAPI's "no authentication").
      const expected = { true: [{ bearer: [] }], optional: [{ bearer: [] }, {}], false: [] }[String(route.auth)];
      expect(op?.security, name).toEqual(expected);
    }
  });

  it("authenticates exactly the routes the contract flags auth: true", async () => {
    for (const [name, route] of Object.entries(routes)) {
      const params = Object.fromEntries((route.path.match(/:\w+/g) ?? []).map((p) => [p.slice(1), "x"])) as never;
      // Uploads are judged by their declared length before anything else, so they get a small multipart body.
      const res = UPLOAD_ROUTES.has(name)
        ? await uploadWithoutSession(route.method, route.path)
        : await injectRoute(server, route, { params, ip: "192.0.2.200" });
      if (route.auth === true) {
        expect([name, res.status, res.body.code]).toEqual([name, 401, "SESSION_TIMEOUT"]);
      } else {
        expect([name, res.status]).not.toEqual([name, 401]);
      }
    }
  });

  it("serves Swagger UI at /api/docs", async () => {
    const res = await server.app.inject({ method: "GET", url: "/api/docs" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
  });
});

describe("security headers", () => {
  it("let Telegram's web clients frame the app and allow only this origin's scripts", async () => {
    const res = await server.app.inject({ method: "GET", url: "/" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("frame-ancestors 'self' https://web.telegram.org https://*.telegram.org");
    // This origin's files, and the built page's own inline script by its hash; never any inline script.
    const hash = createHash("sha256").update(INLINE_SCRIPT).digest("base64");
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("connect-src 'self'");
    // X-Frame-Options cannot allow Telegram only, so it must not be sent at all.
    expect(res.headers["x-frame-options"]).toBeUndefined();
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("allow a new build's inline script without a restart", async () => {
    const file = path.join(dist.dir, "index.html");
    const script = "window.__launched = 2;";
    fs.writeFileSync(file, INDEX_HTML.replace(INLINE_SCRIPT, script));
    const hash = createHash("sha256").update(script).digest("base64");
    const allows = (h: string) => async () =>
      String((await server.app.inject({ method: "GET", url: "/" })).headers["content-security-policy"]).includes(
        `script-src 'self' 'sha256-${h}';`,
      );
    try {
      // The server hears of the new file through its watch on the folder: a moment after it is written.
      await vi.waitFor(async () => expect(await allows(hash)()).toBe(true), { timeout: 15_000, interval: 20 });
    } finally {
      fs.writeFileSync(file, INDEX_HTML);
    }
    const first = createHash("sha256").update(INLINE_SCRIPT).digest("base64");
    await vi.waitFor(async () => expect(await allows(first)()).toBe(true), { timeout: 15_000, interval: 20 });
  });

  it("are computed once, not per reply: a hundred replies read no file, and JSON carries no page headers", async () => {
    const stat = vi.spyOn(fs, "statSync");
    const read = vi.spyOn(fs, "readFileSync");
    try {
      for (let i = 0; i < 100; i++) {
        const res = await server.app.inject({ method: "GET", url: "/api/health" });
        expect(res.statusCode).toBe(200);
        expect(res.headers["x-content-type-options"]).toBe("nosniff");
        // The page's rules (what may run, who may frame it) mean nothing on JSON: they go with HTML only.
        expect(res.headers["content-security-policy"]).toBeUndefined();
        expect(res.headers["cross-origin-opener-policy"]).toBeUndefined();
      }
      expect(stat).not.toHaveBeenCalled();
      expect(read).not.toHaveBeenCalled();
    } finally {
      stat.mockRestore();
      read.mockRestore();
    }
    const page = await server.app.inject({ method: "GET", url: "/deposits" });
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(String(page.headers["content-security-policy"])).toContain("frame-ancestors");
    expect(page.headers["cross-origin-opener-policy"]).toBe("same-origin-allow-popups");
  });

  it("compresses the API's large replies and leaves its small ones as they are", async () => {
    const large = await server.app.inject({
      method: "GET",
      url: "/api/docs/json",
      headers: { "accept-encoding": "gzip" },
    });
    expect(large.headers["content-encoding"]).toBe("gzip");
    const small = await server.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "accept-encoding": "gzip" },
    });
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("never compresses a file of the app per request: the build's copy, or the file as it is", async () => {
    // The file has a Brotli copy only, the favicon none: a small file the build left without copies.
    for (const [url, bytes] of [
      ["/assets/app-4f3a2b1c.js", fs.readFileSync(path.join(dist.dir, "assets", "app-4f3a2b1c.js"))],
      ["/favicon.svg", fs.readFileSync(path.join(dist.dir, "favicon.svg"))],
    ] as const) {
      const res = await server.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate" } });
      expect([url, res.statusCode, res.headers["content-encoding"]]).toEqual([url, 200, undefined]);
      expect(res.rawPayload.equals(bytes)).toBe(true);
      expect(res.headers["content-length"]).toBe(String(bytes.length));
    }
  });
});

describe("in production", () => {
  let production: TestServer;
  let documented: TestServer;

  beforeAll(async () => {
    const env = {
      NODE_ENV: "production",
      TELEGRAM_BOT_TOKEN: "7000000001:AAF-real-looking-token-000000000",
      CODE_SECRET: TEST_CODE_SECRET,
      TELEGRAM_BOT: "off",
      TRUST_PROXY: "10.0.0.5",
    };
    production = await createTestServer({ seed: false, env });
    documented = await createTestServer({ seed: false, handle: production.handle, env: { ...env, API_DOCS: "on" } });
  });

  afterAll(async () => {
    await documented?.close();
    await production?.close();
  });

  it("serves no API document unless API_DOCS turns it on", async () => {
    for (const url of ["/api/docs", "/api/docs/json", "/api/docs/static/index.html"]) {
      const res = await production.app.inject({ method: "GET", url });
      expect([url, res.statusCode, res.json()]).toEqual([url, 404, { code: "NOT_FOUND", message: "Not found" }]);
    }
    expect((await documented.app.inject({ method: "GET", url: "/api/docs/json" })).statusCode).toBe(200);
  });

  it("sends Strict-Transport-Security only on a request that came over https", async () => {
    const plain = await production.app.inject({ method: "GET", url: "/api/health", remoteAddress: "192.0.2.9" });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    // A client cannot claim https itself; the proxy in TRUST_PROXY can.
    const claimed = await production.app.inject({
      method: "GET",
      url: "/api/health",
      remoteAddress: "192.0.2.9",
      headers: { "x-forwarded-proto": "https" },
    });
    expect(claimed.headers["strict-transport-security"]).toBeUndefined();
    const proxied = await production.app.inject({
      method: "GET",
      url: "/api/health",
      remoteAddress: "10.0.0.5",
      headers: { "x-forwarded-proto": "https", "x-forwarded-for": "192.0.2.9" },
    });
    expect(proxied.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });
});

describe("a URL the router refuses", () => {
  // An API-only server: with the built app, a long path may be the static files' to refuse.
  let api: TestServer;
  beforeAll(async () => {
    api = await createTestServer({ seed: false });
  });
  afterAll(async () => {
    await api?.close();
  });

  it.each([
    ["a bad escape", "/api/settings_other/%E0%A4%A", 400],
    ["a bad escape in a parameter", "/api/user/avatar/%zz", 400],
    ["a lone %", "/%", 400],
    ["a parameter longer than the router takes", `/api/settings/${"x".repeat(10_000)}`, 414],
    ["a long escaped parameter", `/api/user/avatar/${"%C3%BC".repeat(3_000)}`, 414],
  ])("%s gets the catalogue's body with the router's status", async (_what, url, status) => {
    const res = await api.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ code: "VALIDATION_FAILED", message: "Check the marked fields" });
  });
});

describe("the built app", () => {
  it("serves index.html at / without caching it", async () => {
    const res = await server.app.inject({ method: "GET", url: "/" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX_HTML);
    expect(res.headers["cache-control"]).toBe("no-cache");
  });

  it.each(["/deposits", "/register/kassa", "/settings/security?tab=1"])(
    "answers the app route %s with index.html (SPA fallback)",
    async (url) => {
      const res = await server.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.body).toBe(INDEX_HTML);
      expect(res.headers["cache-control"]).toBe("no-cache");
    },
  );

  it("caches hashed assets for a year", async () => {
    const res = await server.app.inject({ method: "GET", url: "/assets/app-4f3a2b1c.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("revalidates other files", async () => {
    const res = await server.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-cache");
  });

  it("answers a missing asset with 404, not with the app", async () => {
    const res = await server.app.inject({ method: "GET", url: "/assets/app-00000000.js" });
    expect(res.statusCode).toBe(404);
  });

  it("answers HEAD for a file and for the app's routes without a body", async () => {
    for (const url of ["/", "/assets/app-4f3a2b1c.js", "/deposits"]) {
      const res = await server.app.inject({ method: "HEAD", url });
      expect([url, res.statusCode, res.body]).toEqual([url, 200, ""]);
    }
  });

  it("sends the Brotli copy to a client that takes it, and never the copy by its own name", async () => {
    const res = await server.app.inject({
      method: "GET",
      url: "/assets/app-4f3a2b1c.js",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.body).toBe("brotli bytes");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const own = await server.app.inject({ method: "GET", url: "/assets/app-4f3a2b1c.js.br" });
    expect(own.statusCode).toBe(404);
  });

  it("serves no dotfile and no file by a name spelt otherwise", async () => {
    const dot = await server.app.inject({ method: "GET", url: "/.env" });
    expect(dot.body).not.toContain("SECRET");
    const cased = await server.app.inject({ method: "GET", url: "/assets/APP-4f3a2b1c.js" });
    expect(cased.statusCode).toBe(404);
  });

  it("keeps /api JSON: unknown calls are 404 NOT_FOUND, not index.html", async () => {
    const res = await server.app.inject({ method: "GET", url: "/api/deposits" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
  });
});
