/**
 * Exactly-once money calls (docs/decisions.md#exactly-once-money-calls). Every route the contract flags
 * `idempotent: true` (refill, deposit, deposit close, exchange, withdrawal request and validate, subscription)
 * takes an `Idempotency-Key` header. The first request with a key claims it (a row per user and key, with a
 * fingerprint of method, path and body); its successful reply is stored and every repeat gets that same reply
 * (marked `Idempotent-Replayed: true`) without running the handler again. A repeat while the first is still
 * running is 409 IDEMPOTENCY_IN_FLIGHT; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED. A refused
 * or failed first request (4xx, 5xx) stores nothing, so a retry of the same intent runs again.
 *
 * The claim, the money change and the stored reply are one transaction (docs/security.md, "Exactly-once money calls"), and
 * it lives inside the route's handler, on one connection of the pool: it opens with an advisory lock on the key
 * (tried at once, then waited for a few seconds: a live first run as a rule ends within them and its reply is
 * replayed; a holder that outlasts them is 409 IDEMPOTENCY_IN_FLIGHT; a holder whose process died holds it
 * only until PostgreSQL ends its backend, which the wait covers), reads the key's row (a stored reply is
 * replayed), runs the handler in it (its services' own transactions become savepoints), writes the key's row with the serialised reply last, and commits before the
 * reply is sent. So a crash anywhere before that commit leaves nothing (no key, no money moved) and a retry with
 * the same key runs anew; after it, the retry gets the stored reply.
 *
 * What the transaction does not do: lock the user's row itself (the services lock what they lock, when they
 * need it, `lockUser`; the key's row, written last, takes a key share of the user's row, which their lock leaves
 * alone), or wait for anything on a second connection while it holds its own. Everything of the request
 * outside the handler (the session's lookup before, the reply's hooks after: read-your-writes asks the WAL
 * position on the pool) runs with no transaction open. Holding it across those hooks, as an earlier design did,
 * let a request that held the user's row wait for a pool connection that every other request of the user held
 * while waiting for that row: each freed only at the lock timeout (32 requests of one investor answered 503
 * BUSY after 5-36 s).
 *
 * A refusal (an AppError below 500: a wrong code's count, a rate limit's counter) commits what the services kept
 * and stores no reply; any other failure rolls back whole. Without the header the call runs as before (older
 * clients).
 */
import { createHash } from "node:crypto";
import { DAY_MS, routes } from "@contract";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler, RouteHandlerMethod } from "fastify";
import { withAmbientTransaction } from "../db/ambient";
import type { Database } from "../db/client";
import { resultRows } from "../db/rows";
import { idempotencyKeys } from "../db/schema";
import { AppError, sqlState } from "../errors";
import { requireUser } from "./auth";

const IDEMPOTENCY_HEADER = "idempotency-key";
const REPLAYED_HEADER = "idempotent-replayed";
/** How long a key and its reply are kept; an older key may be used again as new. */
export const IDEMPOTENCY_KEY_TTL_MS = DAY_MS;
/** Visible ASCII, 8 to 255 characters (a UUID fits; so does any client's own scheme). */
const KEY_FORMAT = /^[\x21-\x7e]{8,255}$/;

declare module "fastify" {
  interface FastifyRequest {
    /** The key this request carries (checked, with its fingerprint); claimed in the handler's transaction. */
    idempotencyKey: KeyedCall | null;
  }
}

interface KeyedCall {
  userId: string;
  key: string;
  fingerprint: string;
}

/** How the key's transaction ended. */
type Settled =
  | { kind: "in-flight" }
  | { kind: "reused" }
  | { kind: "stored"; status: number; reply: string }
  | { kind: "done"; status: number; reply: string }
  | { kind: "unstored"; value: unknown }
  | { kind: "refused"; error: AppError };

/** A refusal by a rule: what the services kept for it (a wrong code's count) commits. */
const isRefusal = (error: unknown): error is AppError => error instanceof AppError && error.status < 500;

/**
 * Runs `handle` (the route's handler) in the key's transaction on `db`: the claim, the handler's money change
 * and its stored reply commit together, or nothing does (a refusal keeps what its services kept, no reply).
 */
function runClaimed(
  db: Database,
  call: KeyedCall,
  now: Date,
  reply: FastifyReply,
  handle: () => Promise<unknown>,
): Promise<Settled> {
  const staleBefore = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
  return db
    .transaction(async (tx): Promise<Settled> => {
      const mine = and(eq(idempotencyKeys.userId, call.userId), eq(idempotencyKeys.key, call.key));
      const lockId = sql`hashtextextended(${`idempotency:${call.userId}:${call.key}`}, 0)`;
      const [lock] = resultRows<Record<string, unknown>>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(${lockId}) as held`),
      );
      if (lock?.held !== true) await awaitHolder(tx, lockId);
      // Read after the lock was granted (a statement of its own: under READ COMMITTED it sees the reply a
      // first run committed just before it let the lock go).
      const [first] = await tx
        .select({
          fingerprint: idempotencyKeys.fingerprint,
          status: idempotencyKeys.status,
          reply: idempotencyKeys.reply,
          createdAt: idempotencyKeys.createdAt,
        })
        .from(idempotencyKeys)
        .where(mine);
      // A key past its day is forgotten: the same string starts a new intent. A row without a reply (left by an
      // older server that stored it apart from the claim) has no live holder while this lock is held: free too.
      if (first && first.createdAt >= staleBefore && first.status !== null && first.reply !== null) {
        if (first.fingerprint !== call.fingerprint) return { kind: "reused" };
        return { kind: "stored", status: first.status, reply: first.reply };
      }
      let value: unknown;
      try {
        value = await withAmbientTransaction(tx as unknown as Database, handle);
      } catch (error) {
        if (isRefusal(error)) return { kind: "refused", error };
        // Anything else rolls back whole (a cancel meant for another statement runs it again: db/query-scope.ts).
        throw error;
      }
      if (reply.sent) return { kind: "unstored", value };
      // Serialised here, by the route's own serializer, so the reply stored is the one sent.
      const status = reply.statusCode;
      const body = reply.serialize(value);
      if (status < 200 || status >= 300 || typeof body !== "string") return { kind: "unstored", value };
      const completedAt = new Date();
      await tx
        .insert(idempotencyKeys)
        .values({ ...call, status, reply: body, createdAt: now, completedAt })
        .onConflictDoUpdate({
          target: [idempotencyKeys.userId, idempotencyKeys.key],
          set: { fingerprint: call.fingerprint, status, reply: body, createdAt: now, completedAt },
        });
      return { kind: "done", status, reply: body };
    })
    .catch((error: unknown): Settled => {
      if (error instanceof HolderStayed) return { kind: "in-flight" };
      throw error;
    }) as Promise<Settled>;
}

/**
 * How long a repeat waits for the key's holder before it answers 409 IDEMPOTENCY_IN_FLIGHT (PostgreSQL only:
 * on PGlite the transactions run one at a time, so the try above never finds the lock held). A live first run
 * ends within it as a rule, and the repeat then replays its reply; a holder whose process died (kill -9, a lost
 * host) holds the key until PostgreSQL sees its connection closed and ends the backend, which a restarted
 * server's retry can beat by a moment: it then runs anew instead of being told "in flight" for a call nobody
 * is running.
 */
const IDEMPOTENCY_HOLDER_WAIT_MS = 3000;

/** Raised inside the key's transaction when the holder outlasted the wait (the transaction rolls back whole). */
class HolderStayed extends Error {}

/**
 * Waits up to IDEMPOTENCY_HOLDER_WAIT_MS for the key's advisory lock (HolderStayed past it). The wait's own
 * `lock_timeout` is local to it: the previous one is back before the handler runs.
 */
async function awaitHolder(tx: Pick<Database, "execute">, lockId: SQL): Promise<void> {
  const [before] = resultRows<Record<string, unknown>>(
    await tx.execute(
      sql`select current_setting('lock_timeout') as previous, set_config('lock_timeout', ${`${IDEMPOTENCY_HOLDER_WAIT_MS}ms`}, true)`,
    ),
  );
  try {
    await tx.execute(sql`select pg_advisory_xact_lock(${lockId})`);
  } catch (error) {
    if (sqlState(error) === "55P03") throw new HolderStayed();
    throw error;
  }
  await tx.execute(sql`select set_config('lock_timeout', ${String(before?.previous ?? "0")}, true)`);
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
  app.decorateRequest("idempotencyKey", null);

  // Checked before the handler, with no database work: a malformed key is 400 before anything runs.
  const checkKey: preHandlerHookHandler = async function checkKey(request) {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    if (typeof header !== "string" || !KEY_FORMAT.test(header)) throw new AppError("IDEMPOTENCY_KEY_INVALID");
    const { userId } = requireUser(request);
    request.idempotencyKey = { userId, key: header, fingerprint: fingerprintOf(request) };
  };

  /** The route's handler inside the key's transaction (`runClaimed`) when the request carries a key. */
  const claimed = (handler: RouteHandlerMethod): RouteHandlerMethod =>
    async function claimedHandler(this: FastifyInstance, request, reply) {
      const call = request.idempotencyKey;
      if (!call) return handler.call(this, request, reply);
      const settled = await runClaimed(app.db, call, app.clock.now(), reply, async () =>
        handler.call(this, request, reply),
      );
      switch (settled.kind) {
        case "in-flight":
          throw new AppError("IDEMPOTENCY_IN_FLIGHT");
        case "reused":
          throw new AppError("IDEMPOTENCY_KEY_REUSED");
        case "refused":
          throw settled.error;
        case "stored":
          return replay(reply, settled.status, settled.reply, true);
        case "done":
          return replay(reply, settled.status, settled.reply, false);
        case "unstored":
          return settled.value;
      }
    };

  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => flagged.has(`${method} ${route.url}`))) return;
    route.preHandler = appendHook(route.preHandler, checkKey);
    route.handler = claimed(route.handler);
    if (route.schema) {
      const note =
        "Idempotent: send an `Idempotency-Key` header (8-255 visible ASCII characters, one per user intent). A " +
        `repeat gets the first reply again (\`Idempotent-Replayed: true\`), waiting up to ${IDEMPOTENCY_HOLDER_WAIT_MS / 1000} s for a ` +
        "first run still going; 409 IDEMPOTENCY_IN_FLIGHT past that; " +
        "422 IDEMPOTENCY_KEY_REUSED for the same key with another body.";
      route.schema.description = route.schema.description ? `${route.schema.description}\n\n${note}` : note;
    }
  });
}

/** Sends a serialised reply as it is (the stored one: `replayed`, or the one just stored with its key). */
function replay(reply: FastifyReply, status: number, body: string, replayed: boolean): FastifyReply {
  if (replayed) reply.header(REPLAYED_HEADER, "true");
  return reply
    .code(status)
    .type("application/json; charset=utf-8")
    .serializer((payload: unknown) => payload as string)
    .send(body);
}
