/**
 * Statements (`GET /user/operations/statement`): the caller's operations of a period as a CSV file, for the
 * investor's own books. Only the caller's rows; the period is at most a year (contract/home.ts), and the rows
 * are read and written a batch at a time (keyset over the user's index, oldest first), so a long ledger costs
 * a steady trickle of memory, never the whole period at once.
 *
 * The file: UTF-8 with a byte order mark (spreadsheets then read Cyrillic right), RFC 4180 (comma, CRLF,
 * quotes doubled), a header row of STATEMENT_COLUMNS, dates ISO 8601 in UTC, amounts exact signed decimals.
 * A text cell that a spreadsheet would take for a formula (starting with = + - @, a tab or a carriage
 * return) gets a leading apostrophe and quotes, as OWASP advises against CSV injection; an amount is a plain
 * number and stays one.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import {
  DAY_MS,
  FALLBACK_LANGUAGE,
  LANGUAGES,
  type Language,
  routes,
  STATEMENT_COLUMNS,
  STATEMENT_LINK_SECONDS,
  type StatementLinkReply,
  StatementQuery,
} from "@contract";
import { and, asc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { operations, refills, users, withdrawals } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import type { RateLimitRule } from "../env";
import { AppError } from "../errors";
import { userLanguage } from "./users";

/** Rows read per query: the most the statement holds in memory at once. */
export const STATEMENT_BATCH = 500;

/**
 * Statements per account and hour: a year's file of a long ledger costs seconds of database time, so one
 * account cannot keep the database busy with them (429 RATE_LIMITED with Retry-After beyond that).
 */
export const STATEMENT_LIMIT: RateLimitRule = { max: 30, windowSeconds: 3600 };

const LOCALES_DIR = new URL("../../../locales/", import.meta.url);

/**
 * The operation kinds' names per language (`ledgerOperationType` of locales/<lng>/enums.json), and a
 * withdrawal's return by why the money came back (`withdrawalReturn`: rejected, failed, cancelled), as the
 * app's history names them.
 */
const TYPE_NAMES = Object.fromEntries(
  LANGUAGES.map((language) => {
    const tree = JSON.parse(readFileSync(new URL(`${language}/enums.json`, LOCALES_DIR), "utf8")) as {
      ledgerOperationType?: Record<string, string>;
      withdrawalReturn?: Record<string, string>;
    };
    const returns = Object.entries(tree.withdrawalReturn ?? {}).map(([outcome, name]) => [
      `withdrawal_return:${outcome}`,
      name,
    ]);
    return [language, { ...tree.ledgerOperationType, ...Object.fromEntries(returns) }];
  }),
) as Record<Language, Record<string, string>>;

function typeName(language: Language, type: string, outcome: string | null): string {
  const names = [TYPE_NAMES[language], TYPE_NAMES[FALLBACK_LANGUAGE]];
  const keys = outcome ? [`${type}:${outcome}`, type] : [type];
  for (const key of keys) for (const n of names) if (n[key]) return n[key];
  return type;
}

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula-looking text defused (see the module comment), quoted when it needs to be. */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  let text = value;
  let quote = /[",\r\n]/.test(text);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) {
    text = `'${text}`;
    quote = true;
  }
  return quote ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(",")}\r\n`;

/** The file's name: `kassa-statement-<from>-<to>[-<currency>].csv`. */
export function statementFileName(query: StatementQuery): string {
  return `kassa-statement-${query.from}-${query.to}${query.currency ? `-${query.currency}` : ""}.csv`;
}

type StatementRow = {
  id: string;
  seq: number;
  micros: string;
  createdAt: Date;
  type: string;
  currency: string;
  amount: string;
  depositId: string | null;
  refillId: string | null;
  withdrawalId: string | null;
  refillTx: string | null;
  withdrawalTx: string | null;
  /** A withdrawal's return: why the money came back (its withdrawal's final status). */
  outcome: string | null;
};

/** The next STATEMENT_BATCH rows after `after`, oldest first. */
function readBatch(
  db: Database,
  base: SQL[],
  withdrawalId: SQL<string | null>,
  after: { micros: string; seq: number } | null,
): Promise<StatementRow[]> {
  const cursor: SQL | undefined = after
    ? sql`(${operations.createdAt}, ${operations.seq}) >
        (timestamptz 'epoch' + ${after.micros}::bigint * interval '1 microsecond', ${after.seq}::bigint)`
    : undefined;
  return db
    .select({
      id: operations.id,
      seq: operations.seq,
      micros: sql<string>`(extract(epoch from ${operations.createdAt}) * 1000000)::bigint::text`,
      createdAt: operations.createdAt,
      type: operations.type,
      currency: operations.currency,
      amount: operations.amount,
      depositId: operations.depositId,
      refillId: operations.refillId,
      withdrawalId,
      refillTx: refills.txHash,
      withdrawalTx: withdrawals.txHash,
      outcome: sql<string | null>`${operations.meta}->>'status'`,
    })
    .from(operations)
    .leftJoin(refills, eq(refills.id, operations.refillId))
    .leftJoin(withdrawals, sql`${withdrawals.id} = (${withdrawalId})::uuid`)
    .where(and(...base, cursor))
    .orderBy(asc(operations.createdAt), asc(operations.seq))
    .limit(STATEMENT_BATCH);
}

/** The lines of the file, header first, read a batch at a time. */
async function* statementLines(db: Database, userId: string, query: StatementQuery): AsyncGenerator<string> {
  const [user] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
  const language = userLanguage(user ?? { language: "" });
  const from = new Date(`${query.from}T00:00:00.000Z`);
  const until = new Date(Date.parse(`${query.to}T00:00:00.000Z`) + DAY_MS);
  const base: SQL[] = [eq(operations.userId, userId), gte(operations.createdAt, from), lt(operations.createdAt, until)];
  if (query.currency) base.push(eq(operations.currency, query.currency));
  const withdrawalId = sql<string | null>`${operations.meta}->>'withdrawalId'`;

  yield `\uFEFF${csvLine([...STATEMENT_COLUMNS])}`;
  let after: { micros: string; seq: number } | null = null;
  for (;;) {
    const rows: StatementRow[] = await readBatch(db, base, withdrawalId, after);
    let chunk = "";
    for (const row of rows) {
      chunk += csvLine([
        row.createdAt.toISOString(),
        row.id,
        row.type,
        typeName(language, row.type, row.type === "withdrawal_return" ? row.outcome : null),
        row.currency,
        normalizeDecimal(row.amount),
        row.depositId,
        row.refillId,
        row.withdrawalId,
        row.refillTx ?? row.withdrawalTx,
      ]);
    }
    if (chunk) yield chunk;
    const last = rows[rows.length - 1];
    if (!last || rows.length < STATEMENT_BATCH) return;
    after = { micros: last.micros, seq: last.seq };
  }
}

/** The statement as a stream of UTF-8 text, read from the database as the client takes it. */
export function statementStream(db: Database, userId: string, query: StatementQuery): Readable {
  return Readable.from(statementLines(db, userId, query), { objectMode: false, highWaterMark: 1 });
}

/** The link's signature: HMAC-SHA256 under the server's code secret, kept apart from the codes' by a prefix. */
function linkSignature(secret: string, payload: string): Buffer {
  return createHmac("sha256", secret).update(`statement-link:${payload}`).digest();
}

interface LinkPayload {
  /** The user. */
  u: string;
  /** The session that asked for the link: the link ends with it (logout, a password reset). */
  s: string;
  q: StatementQuery;
  /** Expiry, in ms since the epoch. */
  e: number;
}

/**
 * A link to the caller's statement of `query`, valid STATEMENT_LINK_SECONDS and while the session that asked for
 * it lives: the user, the session, the period and the expiry, signed. It opens that file and nothing else;
 * whoever holds it in that time can download it.
 */
export function statementLink(
  secret: string,
  now: Date,
  auth: { userId: string; sessionId: string },
  query: StatementQuery,
): StatementLinkReply {
  const expires = now.getTime() + STATEMENT_LINK_SECONDS * 1000;
  const payload = Buffer.from(
    JSON.stringify({ u: auth.userId, s: auth.sessionId, q: query, e: expires } satisfies LinkPayload),
  ).toString("base64url");
  const link = `${payload}.${linkSignature(secret, payload).toString("base64url")}`;
  const url = `${routes.statementFile.path}?${new URLSearchParams({ link })}`;
  return { url, expiresAt: new Date(expires).toISOString() };
}

/**
 * A link is exactly `<payload>.<signature>`, both unpadded base64url, the signature 32 bytes (43 characters):
 * nothing before, between or after.
 */
const LINK_SHAPE = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;

/** `text` decoded, only when it is the one canonical base64url spelling of its bytes (no unused bits set). */
function strictBase64url(text: string): Buffer | null {
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : null;
}

/**
 * The user, session and period of a link; a forged, altered, oddly spelled or expired link is 404 NOT_FOUND.
 * The caller checks that the session still lives.
 */
export function openStatementLink(
  secret: string,
  now: Date,
  link: string,
): { userId: string; sessionId: string; query: StatementQuery } {
  const shape = LINK_SHAPE.exec(link);
  const payload = shape?.[1] ?? "";
  const given = shape ? strictBase64url(shape[2] ?? "") : null;
  const body = shape ? strictBase64url(payload) : null;
  const expected = linkSignature(secret, payload);
  if (!given || !body || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError("NOT_FOUND");
  }
  let parsed: Partial<LinkPayload>;
  try {
    parsed = JSON.parse(body.toString("utf8")) as Partial<LinkPayload>;
  } catch {
    throw new AppError("NOT_FOUND");
  }
  const query = StatementQuery.safeParse(parsed.q);
  if (
    typeof parsed.u !== "string" ||
    typeof parsed.s !== "string" ||
    typeof parsed.e !== "number" ||
    !query.success ||
    parsed.e < now.getTime()
  ) {
    throw new AppError("NOT_FOUND");
  }
  return { userId: parsed.u, sessionId: parsed.s, query: query.data };
}
