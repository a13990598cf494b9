-- The change feed (server/src/db/change-feed.ts): a write of the plans or the crypto cases announces `catalog` as a
-- write of the payment systems does, so every instance drops the catalogue it keeps (a deposit reads its plan and
-- case from memory).
CREATE TRIGGER "plans_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "plans"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_catalog"();--> statement-breakpoint
CREATE TRIGGER "crypto_cases_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "crypto_cases"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_catalog"();
