/** Exactly-once money calls: the Idempotency-Key store. */
import { index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { timestamptz } from "./columns";

// -------------------------------------------------------------------------------------------------
// Exactly-once money calls (docs/decisions.md#exactly-once-money-calls).

/**
 * `Idempotency-Key`s of money calls: per user and key, the request's fingerprint (method, path and
 * body hashed) and, once answered, the reply's status and body, which a repeat gets again. `status`
 * is null while the first request is in flight. Kept for a day (`IDEMPOTENCY_KEY_TTL_MS`).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    status: integer("status"),
    reply: text("reply"),
    createdAt: timestamptz("created_at").notNull(),
    completedAt: timestamptz("completed_at"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);
