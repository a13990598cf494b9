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
 * The claim, the money change and the stored reply are one transaction (docs/security.md, "Idempotency"): the
 * key's row is written in a transaction that stays open while the handler runs in it (its services' own
 * transactions become savepoints) and commits with the reply, just before the reply is sent. A crash anywhere
 * before that commit leaves nothing (no key, no money moved): a retry with the same key runs anew; after it,
 * the retry gets the stored reply. A refusal (4xx) commits what the services keep on a refusal (a wrong code's
 * count) and releases the key. While the first runs, its transaction holds an advisory lock on the key, which
 * a repeat tries without waiting (409 IDEMPOTENCY_IN_FLIGHT); a holder that died holds nothing, so its key is
 * never stuck. Without the header the call runs as before (older clients).
 */
import { createHash } from "node:crypto";
import { DAY_MS, routes } from "@contract";
import { and, eq, lt, sql } from "drizzle-orm";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
} from "fastify";
import type { Database } from "../db/client";
import { outsideQueryScope } from "../db/query-scope";
import { idempotencyKeys, users } from "../db/schema";
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
    /** The key this request claimed, in its open transaction; its reply is stored (or the claim released) when sent. */
    idempotencyClaim: HeldClaim | null;
  }
}

/** How a claimed key ends: its reply stored, or released (refused or failed: nothing was spent). */
type Outcome = { stored: true; status: number; reply: string } | { stored: false };

interface HeldClaim {
  /** The transaction the handler runs in. */
  tx: Database;
  /** Writes the outcome and commits; rejects when the commit did not happen. */
  finish(outcome: Outcome): Promise<void>;
}

type ClaimResult =
  | { kind: "claimed"; held: HeldClaim }
  | { kind: "in-flight" }
  | { kind: "existing"; row: typeof idempotencyKeys.$inferSelect | undefined };

/** Rows of a raw statement on either driver (postgres.js: an array; PGlite: `{ rows }`). */
function rowsOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? result : ((result as { rows?: Record<string, unknown>[] }).rows ?? []);
}

/**
 * Opens the key's transaction: the advisory lock (not waited for), then the claim. Resolves once it is known
 * whether this request holds the key; the transaction of a claimed key stays open until `finish`.
 */
function openClaim(
  db: Database,
  values: { userId: string; key: string; fingerprint: string; now: Date; staleBefore: Date },
): Promise<ClaimResult> {
  return new Promise<ClaimResult>((resolve, reject) => {
    let resolved = false;
    const answer = (result: ClaimResult) => {
      resolved = true;
      resolve(result);
    };
    const transaction = db.transaction(async (tx) => {
      const mine = and(eq(idempotencyKeys.userId, values.userId), eq(idempotencyKeys.key, values.key));
      const [lock] = rowsOf(
        await tx.execute(
          sql`select pg_try_advisory_xact_lock(hashtextextended(${`idempotency:${values.userId}:${values.key}`}, 0)) as held`,
        ),
      );
      if (lock?.held !== true) return answer({ kind: "in-flight" });
      // The user's row first (no key update: what a foreign key's key-share lock does not wait for, so the
      // operator's writes for this user are not held back): the key's row below takes a key-share lock on it,
      // and two claims that both went on to lock the row for update in their services would deadlock.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, values.userId)).for("no key update");
      // A new key, or a key past its day (forgotten: the same string starts a new intent); a stored one is
      // left as it is and claims nothing.
      const claimed = await tx
        .insert(idempotencyKeys)
        .values({ userId: values.userId, key: values.key, fingerprint: values.fingerprint, createdAt: values.now })
        .onConflictDoUpdate({
          target: [idempotencyKeys.userId, idempotencyKeys.key],
          set: {
            fingerprint: sql`excluded.fingerprint`,
            createdAt: sql`excluded.created_at`,
            status: null,
            reply: null,
            completedAt: null,
          },
          setWhere: lt(idempotencyKeys.createdAt, values.staleBefore),
        })
        .returning({ key: idempotencyKeys.key });
      if (claimed.length === 0) {
        const [row] = await tx.select().from(idempotencyKeys).where(mine);
        return answer({ kind: "existing", row });
      }
      let decide: (outcome: Outcome) => void = () => {};
      const decided = new Promise<Outcome>((r) => {
        decide = r;
      });
      answer({
        kind: "claimed",
        held: {
          tx: tx as unknown as Database,
          finish: (outcome) => {
            decide(outcome);
            return transaction;
          },
        },
      });
      const outcome = await decided;
      if (outcome.stored) {
        await tx
          .update(idempotencyKeys)
          .set({ status: outcome.status, reply: outcome.reply, completedAt: new Date() })
          .where(mine);
      } else {
        await tx.delete(idempotencyKeys).where(mine);
      }
    });
    transaction.catch((error: unknown) => {
      if (!resolved) reject(error);
    });
  });
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

  const claim: preHandlerHookHandler = async function claimKey(request, reply) {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    if (typeof header !== "string" || !KEY_FORMAT.test(header)) throw new AppError("IDEMPOTENCY_KEY_INVALID");
    const { userId } = requireUser(request);
    const now = app.clock.now();
    const fingerprint = fingerprintOf(request);
    // Outside the request's query scope (db/query-scope.ts): the key's transaction ends as its own
    // outcome says, even when the client leaves meanwhile.
    const result = await outsideQueryScope(() =>
      openClaim(app.db, {
        userId,
        key: header,
        fingerprint,
        now,
        staleBefore: new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS),
      }),
    );
    if (result.kind === "claimed") {
      request.idempotencyClaim = result.held;
      return;
    }
    if (result.kind === "in-flight") throw new AppError("IDEMPOTENCY_IN_FLIGHT");
    const first = result.row;
    if (first && first.fingerprint !== fingerprint) throw new AppError("IDEMPOTENCY_KEY_REUSED");
    // Released between the lock and the read: the client may simply retry.
    if (!first || first.status === null || first.reply === null) throw new AppError("IDEMPOTENCY_IN_FLIGHT");
    return replay(reply, first.status, first.reply);
  };

  const settle: onSendHookHandler = async function settleKey(request, reply, payload) {
    const held = request.idempotencyClaim;
    if (!held) return payload;
    request.idempotencyClaim = null;
    const ok = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === "string";
    // The reply is stored and the money change committed together, before a byte of the reply leaves; when
    // the commit fails the reply is an error, never a success that did not happen.
    await outsideQueryScope(() =>
      held.finish(ok ? { stored: true, status: reply.statusCode, reply: payload } : { stored: false }),
    );
    return payload;
  };

  // A request that ends without a reply to settle (it never reached onSend) gives its key back.
  const release: onResponseHookHandler = async function releaseKey(request) {
    const held = request.idempotencyClaim;
    if (!held) return;
    request.idempotencyClaim = null;
    await held.finish({ stored: false }).catch(() => {});
  };

  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => flagged.has(`${method} ${route.url}`))) return;
    route.preHandler = appendHook(route.preHandler, claim);
    route.onSend = appendHook(route.onSend, settle);
    route.onResponse = appendHook(route.onResponse, release);
    if (route.schema) {
      const note =
        "Idempotent: send an `Idempotency-Key` header (8-255 visible ASCII characters, one per user intent). A " +
        "repeat gets the first reply again (`Idempotent-Replayed: true`); 409 IDEMPOTENCY_IN_FLIGHT while the " +
        "first is running; 422 IDEMPOTENCY_KEY_REUSED for the same key with another body.";
      route.schema.description = route.schema.description ? `${route.schema.description}\n\n${note}` : note;
    }
  });
}

function replay(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header(REPLAYED_HEADER, "true")
    .type("application/json; charset=utf-8")
    .serializer((payload: unknown) => payload as string)
    .send(body);
}
