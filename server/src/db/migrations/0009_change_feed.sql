-- The change feed (server/src/db/change-feed.ts): every instance LISTENs on kassa_changes and
-- drops what it keeps in memory under the key a committed transaction names ('*': everything).
CREATE FUNCTION "kassa_notify_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kassa_changes', '*');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "kassa_notify_settings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kassa_changes', 'settings');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "settings_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "settings"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_settings"();--> statement-breakpoint
-- A session revoked, moved or deleted (not its last_used_at, which changes while it is used).
CREATE FUNCTION "kassa_notify_session"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kassa_changes', 'session:' || OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "sessions_notify" AFTER UPDATE OF "revoked_at", "expires_at", "user_id", "token_hash" OR DELETE
  ON "sessions" FOR EACH ROW EXECUTE FUNCTION "kassa_notify_session"();--> statement-breakpoint
CREATE TRIGGER "sessions_truncate_notify" AFTER TRUNCATE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_all"();--> statement-breakpoint
-- A user's pulse moves with its operations and notifications.
CREATE FUNCTION "kassa_notify_operations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kassa_changes', 'user:' || u.user_id) FROM (SELECT DISTINCT user_id FROM new_operations) u;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "operations_notify" AFTER INSERT ON "operations" REFERENCING NEW TABLE AS new_operations
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_operations"();--> statement-breakpoint
CREATE FUNCTION "kassa_notify_notification"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('kassa_changes', 'user:' || OLD.user_id);
  ELSE
    PERFORM pg_notify('kassa_changes', 'user:' || NEW.user_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "notifications_notify" AFTER INSERT OR UPDATE OR DELETE ON "notifications"
  FOR EACH ROW EXECUTE FUNCTION "kassa_notify_notification"();--> statement-breakpoint
CREATE TRIGGER "operations_truncate_notify" AFTER TRUNCATE ON "operations"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_all"();--> statement-breakpoint
CREATE TRIGGER "notifications_truncate_notify" AFTER TRUNCATE ON "notifications"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_all"();
