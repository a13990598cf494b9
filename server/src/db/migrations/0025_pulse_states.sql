-- The pulse (GET /user/pulse) moves with every change of a user's money or deposit state, not only with a new
-- operation or notification: an accrual run writes neither (it adds to a deposit's held accruals), nor does a
-- withdrawal's or a refill's move without one. Each deposit, withdrawal and refill row takes a new number from one
-- sequence whenever it is written; the pulse reads the user's highest. And every such write announces user:<id>
-- on the change feed (server/src/db/change-feed.ts), so no instance keeps a pulse from before it.
CREATE SEQUENCE "kassa_state_seq";--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "state_seq" bigint DEFAULT nextval('kassa_state_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "state_seq" bigint DEFAULT nextval('kassa_state_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "refills" ADD COLUMN "state_seq" bigint DEFAULT nextval('kassa_state_seq') NOT NULL;--> statement-breakpoint
CREATE INDEX "deposits_user_state_idx" ON "deposits" ("user_id", "state_seq");--> statement-breakpoint
CREATE INDEX "withdrawals_user_state_idx" ON "withdrawals" ("user_id", "state_seq");--> statement-breakpoint
CREATE INDEX "refills_user_state_idx" ON "refills" ("user_id", "state_seq");--> statement-breakpoint
CREATE FUNCTION "kassa_state_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.state_seq := nextval('kassa_state_seq');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE FUNCTION "kassa_notify_user_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('kassa_changes', 'user:' || OLD.user_id);
  ELSE
    PERFORM pg_notify('kassa_changes', 'user:' || NEW.user_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "deposits_state_stamp" BEFORE UPDATE ON "deposits"
  FOR EACH ROW EXECUTE FUNCTION "kassa_state_stamp"();--> statement-breakpoint
CREATE TRIGGER "withdrawals_state_stamp" BEFORE UPDATE ON "withdrawals"
  FOR EACH ROW EXECUTE FUNCTION "kassa_state_stamp"();--> statement-breakpoint
CREATE TRIGGER "refills_state_stamp" BEFORE UPDATE ON "refills"
  FOR EACH ROW EXECUTE FUNCTION "kassa_state_stamp"();--> statement-breakpoint
CREATE TRIGGER "deposits_notify" AFTER INSERT OR UPDATE OR DELETE ON "deposits"
  FOR EACH ROW EXECUTE FUNCTION "kassa_notify_user_state"();--> statement-breakpoint
CREATE TRIGGER "withdrawals_notify" AFTER INSERT OR UPDATE OR DELETE ON "withdrawals"
  FOR EACH ROW EXECUTE FUNCTION "kassa_notify_user_state"();--> statement-breakpoint
CREATE TRIGGER "refills_notify" AFTER INSERT OR UPDATE OR DELETE ON "refills"
  FOR EACH ROW EXECUTE FUNCTION "kassa_notify_user_state"();--> statement-breakpoint
CREATE TRIGGER "deposits_truncate_notify" AFTER TRUNCATE ON "deposits"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_all"();--> statement-breakpoint
CREATE TRIGGER "withdrawals_truncate_notify" AFTER TRUNCATE ON "withdrawals"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_all"();--> statement-breakpoint
CREATE TRIGGER "refills_truncate_notify" AFTER TRUNCATE ON "refills"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_all"();
