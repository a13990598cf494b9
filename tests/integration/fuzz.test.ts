/**
 * Fuzzing driven by the OpenAPI document (docs/decisions.md#several-instances): every operation the server
 * documents gets generated requests — random and hostile strings (NUL, lone surrogates, control characters,
 * RTL, 10,000 characters, SQL and HTML), odd numbers (negative, huge, exponent forms, NaN-like text), wrong
 * types, missing and extra fields, bodies over the limit and nested 10,000 deep, bad path parameters and query
 * strings — unauthenticated, as an investor and as the operator; some with a valid Idempotency-Key, and every
 * money POST of the contract (its `idempotent` routes) also gets bodies nested thousands of levels deep,
 * alone and inside plausible fields, under valid keys. No reply may be a 5xx, and no reply to
 * investor A may carry investor B's marker. A seeded generator: a failure prints its seed and reproduces
 * (`FUZZ_SEED=<seed>`). The figures are printed: requests and replies per status.
 */
import { type RouteDef, routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, injectRoute, registerUser, TEST_OPERATOR_TOKEN, type TestServer } from "./helpers";

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
/** Requests per operation and caller. */
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 24);

/** mulberry32: small, seeded, good enough to pick cases. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDFFFy",
  "\u0007\u001B\u007F",
  "\u202Eevil\u202C",
  "Ω≈ç√∫˜µ≤≥÷",
  "👩‍👩‍👧‍👦",
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "../../../../etc/passwd",
  "%00",
  "%s%s%s%n",
  "{{7*7}}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile input as it comes (Log4Shell's lookup), not a template
  "${jndi:ldap://x}",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-1e309",
  "0x1F",
  "1_000",
  "0.0000000001",
  "-0",
  "00000000000000000000000001",
  "99999999999999999999999999999999999999.99999999",
  "x".repeat(10_000),
  "ü".repeat(3_000),
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
];

const HOSTILE_NUMBERS = [0, -1, 1, 1.5, -0.000001, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MAX_VALUE, 1e-320];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: Json[];
  const?: Json;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  schema?: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
  multipart: boolean;
  operator: boolean;
}

function operationsOf(doc: {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>
  >;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const content = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: content["application/json"]?.schema,
        multipart: "multipart/form-data" in content,
        operator: path.includes("/operator"),
      });
    }
  }
  return ops;
}

/** A path segment, lone surrogates sent as the invalid UTF-8 bytes a hostile client would send. */
function pathSegment(raw: string): string {
  return Array.from(raw, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      return "%ED%A0%80";
    }
  }).join("");
}

function generator(random: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;

  const plausibleString = (schema: Schema): string => {
    if (schema.enum?.length) return String(pick(schema.enum));
    if (schema.format === "uuid") return crypto.randomUUID();
    if (schema.format === "date" || schema.format === "date-time") return chance(0.5) ? "2026-01-01" : "2026-13-45";
    const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 12));
    return Array.from({ length }, () => pick("abcdefghijklmnopqrstuvwxyz0123456789.-_@".split(""))).join("");
  };

  const value = (schema: Schema | undefined, depth: number): Json => {
    // Now and then anything at all in any place: wrong types are the point.
    if (!schema || chance(0.15)) return wild(depth);
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants?.length) return value(pick(variants), depth);
    if (schema.allOf?.length) return value(schema.allOf[0], depth);
    if (schema.const !== undefined) return chance(0.8) ? schema.const : wild(depth);
    if (schema.enum?.length) return chance(0.7) ? pick(schema.enum) : pick(HOSTILE_STRINGS);
    const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
    switch (type) {
      case "object":
        return object(schema, depth);
      case "array":
        return Array.from({ length: Math.floor(random() * 4) }, () => value(schema.items, depth + 1));
      case "string":
        return chance(0.5) ? plausibleString(schema) : pick(HOSTILE_STRINGS);
      case "number":
      case "integer":
        return chance(0.7) ? pick(HOSTILE_NUMBERS) : pick(HOSTILE_STRINGS);
      case "boolean":
        return chance(0.8) ? chance(0.5) : pick(["true", "1", 0, null] as Json[]);
      case "null":
        return null;
      default:
        return wild(depth);
    }
  };

  const object = (schema: Schema, depth: number): Json => {
    const out: Record<string, Json> = {};
    for (const [key, prop] of Object.entries(schema.properties ?? {})) {
      const required = schema.required?.includes(key) ?? false;
      if (!required && chance(0.4)) continue;
      if (required && chance(0.05)) continue; // a required field missing
      out[key] = depth > 4 ? wild(5) : value(prop, depth + 1);
    }
    if (chance(0.15)) out[pick(["__proto__", "constructor", "extra", "\u0000", "x".repeat(300)])] = wild(depth + 1);
    return out;
  };

  const wild = (depth: number): Json => {
    const kind = Math.floor(random() * (depth > 3 ? 4 : 6));
    switch (kind) {
      case 0:
        return pick(HOSTILE_STRINGS);
      case 1:
        return pick(HOSTILE_NUMBERS);
      case 2:
        return pick([null, true, false] as Json[]);
      case 3:
        return "";
      case 4:
        return Array.from({ length: Math.floor(random() * 3) }, () => wild(depth + 1));
      default:
        return { [pick(["a", "amount", "id", "login"])]: wild(depth + 1) };
    }
  };

  const deep = (levels: number): string => `${"[".repeat(levels)}${"]".repeat(levels)}`;

  /** One request for `op`: a method, a URL, a payload (object, raw text or nothing), extra headers. */
  const request = (op: Operation) => {
    const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
      const param = op.parameters.find((p) => p.in === "path" && p.name === name);
      const raw = chance(0.5) && param?.schema ? String(value(param.schema, 0)) : String(pick(HOSTILE_STRINGS));
      return pathSegment(raw.slice(0, 2_000)) || "x";
    });
    const query = new URLSearchParams();
    for (const param of op.parameters.filter((p) => p.in === "query")) {
      if (chance(0.5)) continue;
      const v = value(param.schema, 0);
      query.append(param.name, typeof v === "string" ? v.slice(0, 2_000) : JSON.stringify(v));
    }
    if (chance(0.1)) query.append(pick(["page", "limit", "x", "\u0000"]), String(pick(HOSTILE_STRINGS)).slice(0, 200));
    const url = `${path}${query.size ? `?${query}` : ""}`;
    const roll = random();
    let payload: string | undefined;
    let contentType = "application/json";
    if (roll < 0.04) payload = deep(10_000);
    else if (roll < 0.07) payload = JSON.stringify({ data: "x".repeat(2 * 1024 * 1024) });
    else if (roll < 0.1) payload = pick(["{", "[1,2", "nul", '{"a":}', "\u0000", "{}garbage"]);
    else if (roll < 0.13 || op.multipart) {
      contentType = pick(["multipart/form-data; boundary=x", "text/plain", "application/x-www-form-urlencoded"]);
      payload = pick(['--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', "a=1&b=2", "\u0000\u0001"]);
    } else if (op.method !== "GET" && op.method !== "DELETE") payload = JSON.stringify(value(op.body, 0));
    return { url, payload, contentType };
  };

  return { request, chance, pick };
}

let server: TestServer;
let tokenA: string;
let tokenB: string;
let markerB: string;

beforeAll(async () => {
  server = await createTestServer();
  tokenA = (await registerUser(server)).token;
  const b = await registerUser(server);
  tokenB = b.token;
  // Investor B's own data carries a marker that must never reach investor A.
  markerB = `MarkerB${Math.floor(Math.random() * 1e9)}`;
  const updated = await injectRoute(server, routes.updateProfile, { token: tokenB, body: { city: markerB } });
  if (updated.status !== 200) throw new Error(`could not set B's marker: ${updated.status}`);
});

afterAll(async () => {
  await server?.close();
});

/** The money POSTs: the contract's routes flagged `idempotent` (each takes an Idempotency-Key). */
const MONEY_POSTS = Object.entries(routes).filter(([, def]) => "idempotent" in def && def.idempotent) as [
  string,
  RouteDef,
][];

describe("deep bodies under idempotency keys", () => {
  it("answers every money POST's deep body, with a valid key, without a 5xx", async () => {
    expect(MONEY_POSTS.length).toBeGreaterThanOrEqual(4);
    const { pick } = generator(prng(SEED));
    const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
    const arrays = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    const bodies = [
      arrays(10_000),
      objects(4_000),
      objects(40),
      `{"amount":${objects(4_000)},"currency":"USDT"}`,
      `{"code":"123456","withdrawalId":${arrays(5_000)}}`,
      `{"planId":"start","currency":"USDT","amount":"10","autoInvest":${arrays(3_000)}}`,
    ];
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    for (const [name, def] of MONEY_POSTS) {
      for (const body of bodies) {
        for (const token of [tokenA, undefined]) {
          sent += 1;
          const id = pick(["00000000-0000-4000-8000-000000000000", "x", "%00", "1".repeat(300)]);
          const url = `/api${def.path.replace(/:([a-zA-Z]+)/g, encodeURIComponent(id))}`;
          const res = await server.app.inject({
            method: def.method as "POST",
            url,
            headers: {
              "content-type": "application/json",
              "idempotency-key": `deep-${SEED}-${name}-${sent}`,
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            remoteAddress: `10.200.${sent >> 8}.${sent & 255}`,
            payload: body,
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode >= 500) failures.push(`${res.statusCode} ${name} ${body.slice(0, 60)} → ${res.body}`);
        }
      }
    }
    console.log(
      `[kassa] fuzz, deep bodies (seed ${SEED}): ${sent} requests to ${MONEY_POSTS.length} money POSTs — ` +
        [...statuses.entries()].map(([status, n]) => `${status}: ${n}`).join(", "),
    );
    expect(failures, `seed ${SEED}`).toEqual([]);
  });
});

describe("fuzzing every operation of the OpenAPI document", () => {
  it("answers every generated request without a 5xx and never shows A what belongs to B", async () => {
    const doc = (server.app as unknown as { swagger(): Parameters<typeof operationsOf>[0] }).swagger();
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(40);
    const gen = generator(prng(SEED));
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let requests = 0;
    let ip = 0;
    const started = Date.now();

    const send = async (op: Operation, token: string | undefined) => {
      const { url, payload, contentType } = gen.request(op);
      ip += 1;
      const res = await server.app.inject({
        method: op.method as "GET",
        // The document's paths carry the API prefix already.
        url: url.startsWith("/api/") ? url : `/api${url}`,
        headers: {
          "content-type": contentType,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(gen.chance(0.1)
            ? {
                "idempotency-key": gen.chance(0.5)
                  ? `fuzz-key-${SEED}-${requests}`
                  : String(gen.pick(["", "\u0000", "x".repeat(500), "k1"])),
              }
            : {}),
        },
        // Spread over many addresses, so the per-address limits do not answer everything with 429.
        remoteAddress: `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
        ...(payload === undefined ? {} : { payload }),
      });
      requests += 1;
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500)
        failures.push(
          `${res.statusCode} ${op.method} ${url.slice(0, 120)} ${String(payload).slice(0, 120)} → ${res.body.slice(0, 200)}`,
        );
      if (token === tokenA && res.body.includes(markerB)) failures.push(`B's marker in A's reply: ${op.method} ${url}`);
    };

    // The investor's operations first: the operator's may switch maintenance on for everyone.
    const ordered = [...operations.filter((op) => !op.operator), ...operations.filter((op) => op.operator)];
    let sessionsEnded = 0;
    for (const op of ordered) {
      const callers = op.operator ? [TEST_OPERATOR_TOKEN, undefined] : [undefined, tokenA];
      for (const token of callers) {
        const batch = Array.from({ length: ROUNDS }, () => send(op, token));
        await Promise.all(batch);
      }
      // A fuzzed logout or password change may end A's session: A signs up again and goes on.
      if (!op.operator && (await injectRoute(server, routes.currentUser, { token: tokenA })).status === 401) {
        sessionsEnded += 1;
        tokenA = (await registerUser(server)).token;
      }
    }

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const byStatus = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .join(", ");
    console.log(
      `[kassa] fuzz (seed ${SEED}): ${requests} requests over ${operations.length} operations in ${seconds} s — ${byStatus}` +
        ` (A's session ended by a fuzzed call ${sessionsEnded} times)`,
    );
    expect(requests).toBeGreaterThanOrEqual(3_000);
    expect(failures, `seed ${SEED}`).toEqual([]);
    // The server still works afterwards, once the operator has ended any maintenance the fuzz began.
    const off = await injectRoute(server, operatorRoutes.maintenance, {
      token: TEST_OPERATOR_TOKEN,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    expect((await injectRoute(server, routes.currentUser, { token: tokenA })).status).toBe(200);
  });
});
