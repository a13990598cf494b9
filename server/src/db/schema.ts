/**
 * The database schema (Drizzle, PostgreSQL). Every amount is NUMERIC and reaches the code as a
 * decimal string, never a JS number (docs/decisions.md#d3-money). Localized texts are jsonb `{ en, ru, de, kk }`.
 * After a change run `npm run db:generate` and commit the new migration.
 */

export * from "./schema/accounts";
export * from "./schema/catalog";
export * from "./schema/chat";
export * from "./schema/idempotency";
export * from "./schema/kept-totals";
export * from "./schema/money";
export * from "./schema/notifications";
export * from "./schema/partners";
export * from "./schema/shared-state";
