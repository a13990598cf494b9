-- The menu sweep (server/src/telegram/menus.ts) reads the chats flagged here instead of joining every linked chat
-- with its account every 15 s. A chat is flagged when its menu's language is written (/start, /language), and
-- when the language, the Telegram link or the block of the account behind it changes; the sweep clears the flag
-- once the menu matches the account. Every chat with a menu is flagged once here: the first sweep settles them all.
ALTER TABLE "bot_chats" ADD COLUMN "menu_stale" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "bot_chats" SET "menu_stale" = true WHERE "menu_language" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "bot_chats_menu_stale_idx" ON "bot_chats" ("chat_id") WHERE "menu_stale";--> statement-breakpoint
CREATE FUNCTION "kassa_menu_written"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.menu_stale := NEW.menu_language IS NOT NULL;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "bot_chats_menu_added" BEFORE INSERT ON "bot_chats"
  FOR EACH ROW EXECUTE FUNCTION "kassa_menu_written"();--> statement-breakpoint
-- Not when the writer sets the flag itself (the sweep, after setting the button).
CREATE TRIGGER "bot_chats_menu_written" BEFORE UPDATE OF "menu_language" ON "bot_chats"
  FOR EACH ROW WHEN (OLD.menu_stale IS NOT DISTINCT FROM NEW.menu_stale)
  EXECUTE FUNCTION "kassa_menu_written"();--> statement-breakpoint
CREATE FUNCTION "kassa_menu_account_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "bot_chats" SET "menu_stale" = true WHERE "chat_id" = NEW.telegram_id AND "menu_language" IS NOT NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_menu_account_added" AFTER INSERT ON "users"
  FOR EACH ROW WHEN (NEW.telegram_id IS NOT NULL)
  EXECUTE FUNCTION "kassa_menu_account_changed"();--> statement-breakpoint
CREATE TRIGGER "users_menu_account_changed" AFTER UPDATE OF "language", "telegram_id", "bot_blocked_at" ON "users"
  FOR EACH ROW WHEN (
    NEW.telegram_id IS NOT NULL AND (
      OLD.language IS DISTINCT FROM NEW.language
      OR OLD.telegram_id IS DISTINCT FROM NEW.telegram_id
      OR (OLD.bot_blocked_at IS NOT NULL AND NEW.bot_blocked_at IS NULL)))
  EXECUTE FUNCTION "kassa_menu_account_changed"();
