-- The change feed (server/src/db/change-feed.ts): an update of a user's row announces user:<id>,
-- so every instance drops the row it keeps.
CREATE FUNCTION "kassa_notify_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kassa_changes', 'user:' || OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_notify" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "kassa_notify_user"();--> statement-breakpoint
CREATE TRIGGER "users_truncate_notify" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_all"();
