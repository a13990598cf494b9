/**
 * Exactly-once money calls (docs/decisions.md#exactly-once-money-calls). Every route the contract flags
 * `idempotent: true` (refill, deposit, deposit close, exchange, withdrawal request and validate, subscription)
 * takes an `Idempotency-Key` header. The first request with a key claims it (a row per user and key, with a
 * fingerprint of method, path and body); its successful reply is stored and every repeat gets that same reply
 * (marked `Idempotent-Replayed: true`) without running the handler again. A repeat while the first is still
 * running is 409 IDEMPOTENCY_IN_FLIGHT; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED. A refused
 * or failed first request (4xx, 5xx) changed no money (the services roll back), so its key is released and a
 * retry of the same intent runs again.
 *
 * The claim is a row in the database, not process memory, so it holds across several server
 * instances on one PostgreSQL. Without the header the call runs as before (older clients).
 */
import { createHash } from "node:crypto";
import { DAY_MS, routes } from "@contract";
import { and, eq, lt, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from "fastify";
import type { Database } from "../db/client";
import { outsideQueryScope } from "../db/query-scope";
import { idempotencyKeys } from "../db/schema";
import { AppError } from "../errors";
import { requireUser } from "./auth";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";
/** How long a key and its reply are kept; an older key may be used again as new. */
export const IDEMPOTENCY_KEY_TTL_MS = DAY_MS;
/** Visible ASCII, 8 to 255 characters (a UUID fits; so does any client's own scheme). */
const KEY_FORMAT = /^[\x21-\x7e]{8,255}$/;

declare module "fastify" {
  interface FastifyRequest {
    /** The key this request claimed; its reply is stored (or the claim released) when sent. */
    idempotencyClaim: { userId: string; key: string } | null;
  }
}

/** `METHOD /api/path` of every idempotent route of the contract. */
function idempotentRoutes(prefix: string): Set<string> {
  const set = new Set<string>();
  for (const def of Object.values(routes)) {
    if ("idempotent" in def && def.idempotent) set.add(`${def.method} ${prefix}${def.path}`);
  }
  return set;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` fingerprint the same. */
function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

function fingerprintOf(request: FastifyRequest): string {
  return createHash("sha256")
    .update(`${request.method} ${request.url.split("?", 1)[0]}\n${canonicalJson(request.body)}`)
    .digest("hex");
}

function appendHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  if (existing === undefined) return [hook];
  return Array.isArray(existing) ? [...existing, hook] : [existing, hook];
}

export function registerIdempotency(app: FastifyInstance, prefix: string): void {
  const flagged = idempotentRoutes(prefix);
  app.decorateRequest("idempotencyClaim", null);
  const statements = idempotencyStatements(app.db);

  const claim: preHandlerHookHandler = async function claimKey(request, reply) {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    if (typeof header !== "string" || !KEY_FORMAT.test(header)) throw new AppError("IDEMPOTENCY_KEY_INVALID");
    const { userId } = requireUser(request);
    const now = app.clock.now();
    const fingerprint = fingerprintOf(request);
    // One statement claims a new key, or a key past its day (forgotten: the same string starts a new
    // intent); a live key is left as it is and claims nothing.
    // Outside the request's query scope (db/query-scope.ts), as the reply's storing below: a claim
    // made is always settled, even when the client leaves meanwhile.
    const claimed = await outsideQueryScope(() =>
      statements.claim.execute({
        userId,
        key: header,
        fingerprint,
        now,
        staleBefore: new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS).toISOString(),
      }),
    );
    if (claimed.length > 0) {
      request.idempotencyClaim = { userId, key: header };
      return;
    }
    const [first] = await statements.read.execute({ userId, key: header });
    if (first && first.fingerprint !== fingerprint) throw new AppError("IDEMPOTENCY_KEY_REUSED");
    // Still running (or released between our insert and select: the client may simply retry).
    if (!first || first.status === null || first.reply === null) throw new AppError("IDEMPOTENCY_IN_FLIGHT");
    return replay(reply, first.status, first.reply);
  };

  const settle: onSendHookHandler = async function settleKey(request, reply, payload) {
    const held = request.idempotencyClaim;
    if (!held) return payload;
    request.idempotencyClaim = null;
    const ok = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === "string";
    // Stored even when the client has gone (it retries with the same key and gets this reply);
    // the request's abandonment must not cancel it (db/query-scope.ts).
    await outsideQueryScope(async () => {
      if (ok) {
        await statements.store.execute({
          ...held,
          status: reply.statusCode,
          reply: payload,
          completedAt: app.clock.now().toISOString(),
        });
      } else {
        // Refused or failed: nothing was spent, the same intent may run again.
        await statements.release.execute(held);
      }
    });
    return payload;
  };

  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => flagged.has(`${method} ${route.url}`))) return;
    route.preHandler = appendHook(route.preHandler, claim);
    route.onSend = appendHook(route.onSend, settle);
    if (route.schema) {
      const note =
        "Idempotent: send an `Idempotency-Key` header (8-255 visible ASCII characters, one per user intent). A " +
        "repeat gets the first reply again (`Idempotent-Replayed: true`); 409 IDEMPOTENCY_IN_FLIGHT while the " +
        "first is running; 422 IDEMPOTENCY_KEY_REUSED for the same key with another body.";
      route.schema.description = route.schema.description ? `${route.schema.description}\n\n${note}` : note;
    }
  });
}

/**
 * The plugin's statements, built by drizzle once (`prepare`) with placeholders for their values:
 * an idempotent call runs two of them, and building each anew cost as much CPU as the driver's
 * whole work for it (server/README.md, "Performance").
 */
function idempotencyStatements(db: Database) {
  const userId = sql.placeholder("userId");
  const key = sql.placeholder("key");
  const mine = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
  return {
    claim: db
      .insert(idempotencyKeys)
      .values({ userId, key, fingerprint: sql.placeholder("fingerprint"), createdAt: sql.placeholder("now") })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.key],
        // The claim's own values (`excluded`): a stale key starts anew.
        set: {
          fingerprint: sql`excluded.fingerprint`,
          createdAt: sql`excluded.created_at`,
          status: null,
          reply: null,
          completedAt: null,
        },
        setWhere: lt(idempotencyKeys.createdAt, sql`${sql.placeholder("staleBefore")}::timestamptz`),
      })
      .returning({ key: idempotencyKeys.key })
      .prepare("idempotency_claim"),
    read: db.select().from(idempotencyKeys).where(mine).prepare("idempotency_read"),
    store: db
      .update(idempotencyKeys)
      .set({
        status: sql`${sql.placeholder("status")}::integer`,
        reply: sql`${sql.placeholder("reply")}::text`,
        completedAt: sql`${sql.placeholder("completedAt")}::timestamptz`,
      })
      .where(mine)
      .prepare("idempotency_store"),
    release: db.delete(idempotencyKeys).where(mine).prepare("idempotency_release"),
  };
}

function replay(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header(REPLAYED_HEADER, "true")
    .type("application/json; charset=utf-8")
    .serializer((payload: unknown) => payload as string)
    .send(body);
}
