/** Shared state of several instances: the rate limiter's counters. */
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

// -------------------------------------------------------------------------------------------------
// Shared state of several instances (docs/decisions.md#several-instances).

/**
 * The rate limiter's counters when the server runs on PostgreSQL (`security/rate-limit.ts`): one
 * row per key, its points and when its window ends. Every instance on the database counts here, so
 * a client has one budget whichever instance answers, and a restart forgets nothing. On PGlite the
 * counters live in the process's memory and this table stays empty.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    points: integer("points").notNull(),
    /** Null: never expires (a block without end). */
    expire: timestamptz("expire"),
  },
  (t) => [index("rate_limits_expire_idx").on(t.expire)],
);
