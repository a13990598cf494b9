-- The investor's home (server/README.md, "Home: statements, overview, income, inbox").
-- 1. A cancelled, rejected or failed withdrawal's return is its own ledger kind, `withdrawal_return`.
ALTER TABLE "operations" DROP CONSTRAINT "operations_type_known";--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_type_known" CHECK ("operations"."type" in ('accrual', 'referral', 'matching', 'bonus', 'plan', 'refill', 'exchange', 'deposit_return', 'withdrawal', 'withdrawal_return', 'subscription'));--> statement-breakpoint
-- The returns written before were `withdrawal` operations too; they are exactly the positive ones (the
-- application's own debit is always negative), so they take the new kind, and the kept totals of both
-- kinds are counted again from the ledger.
UPDATE "operations" SET "type" = 'withdrawal_return' WHERE "type" = 'withdrawal' AND "amount" > 0;--> statement-breakpoint
DELETE FROM "operation_totals" WHERE "type" IN ('withdrawal', 'withdrawal_return');--> statement-breakpoint
INSERT INTO "operation_totals" ("user_id", "currency", "type", "count", "credited")
SELECT user_id, currency, type, count(*), coalesce(sum(amount) FILTER (WHERE amount > 0), 0)
  FROM operations WHERE type IN ('withdrawal', 'withdrawal_return') GROUP BY user_id, currency, type;--> statement-breakpoint
-- 2. Income by day (`GET /user/income`): per user, UTC day and currency, the deposits' daily accruals
-- (by the day each fell due) and the partner income (referral, matching and turnover bonuses, by the
-- day each was paid). A deposit closed early gives its days back: that income was forfeited.
CREATE TABLE "income_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"accruals" numeric(38, 18) DEFAULT '0' NOT NULL,
	"bonuses" numeric(38, 18) DEFAULT '0' NOT NULL,
	CONSTRAINT "income_days_user_id_day_currency_pk" PRIMARY KEY("user_id","day","currency")
);--> statement-breakpoint
ALTER TABLE "income_days" ADD CONSTRAINT "income_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "income_days" ("user_id", "day", "currency", "accruals")
SELECT d.user_id, (a.due_at AT TIME ZONE 'UTC')::date, d.currency, sum(a.amount)
  FROM accruals a JOIN deposits d ON d.id = a.deposit_id
 WHERE d.status <> 'closed'
 GROUP BY d.user_id, (a.due_at AT TIME ZONE 'UTC')::date, d.currency;--> statement-breakpoint
INSERT INTO "income_days" AS t ("user_id", "day", "currency", "bonuses")
SELECT user_id, (created_at AT TIME ZONE 'UTC')::date, currency, sum(amount)
  FROM operations WHERE type IN ('referral', 'matching', 'bonus')
 GROUP BY user_id, (created_at AT TIME ZONE 'UTC')::date, currency
ON CONFLICT ("user_id", "day", "currency") DO UPDATE SET bonuses = t.bonuses + excluded.bonuses;--> statement-breakpoint
-- New accrual days: rows are written in key order, so concurrent writers cannot wait on each other in a circle.
CREATE FUNCTION "kassa_keep_income_accruals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO income_days AS t (user_id, day, currency, accruals)
  SELECT d.user_id, (a.due_at AT TIME ZONE 'UTC')::date, d.currency, sum(a.amount)
    FROM new_accruals a JOIN deposits d ON d.id = a.deposit_id
   GROUP BY d.user_id, (a.due_at AT TIME ZONE 'UTC')::date, d.currency ORDER BY 1, 2, 3
  ON CONFLICT (user_id, day, currency) DO UPDATE SET accruals = t.accruals + excluded.accruals;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "accruals_keep_income" AFTER INSERT ON "accruals" REFERENCING NEW TABLE AS new_accruals
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_keep_income_accruals"();--> statement-breakpoint
-- New partner income.
CREATE FUNCTION "kassa_keep_income_bonuses"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO income_days AS t (user_id, day, currency, bonuses)
  SELECT user_id, (created_at AT TIME ZONE 'UTC')::date, currency, sum(amount) FROM new_operations
   WHERE type IN ('referral', 'matching', 'bonus')
   GROUP BY user_id, (created_at AT TIME ZONE 'UTC')::date, currency ORDER BY 1, 2, 3
  ON CONFLICT (user_id, day, currency) DO UPDATE SET bonuses = t.bonuses + excluded.bonuses;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "operations_keep_income" AFTER INSERT ON "operations" REFERENCING NEW TABLE AS new_operations
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_keep_income_bonuses"();--> statement-breakpoint
-- A deposit closed early: its accrued days leave the income (the held accruals were forfeited).
CREATE FUNCTION "kassa_forfeit_income"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  -- Day by day in key order, like the inserts above.
  FOR r IN SELECT (due_at AT TIME ZONE 'UTC')::date AS day, sum(amount) AS amount FROM accruals
            WHERE deposit_id = NEW.id GROUP BY 1 ORDER BY 1 LOOP
    UPDATE income_days SET accruals = accruals - r.amount
     WHERE user_id = NEW.user_id AND day = r.day AND currency = NEW.currency;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "deposits_forfeit_income" AFTER UPDATE OF "status" ON "deposits"
  FOR EACH ROW WHEN (OLD.status = 'active' AND NEW.status = 'closed') EXECUTE FUNCTION "kassa_forfeit_income"();
