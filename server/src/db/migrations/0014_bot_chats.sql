-- The bot's private chats: the language chosen with /language (also without an account), the
-- language the chat's menu button was set in, and the chat's opt-ins (news, the daily accruals).
CREATE TABLE "bot_chats" (
	"chat_id" bigint PRIMARY KEY NOT NULL,
	"language" text,
	"menu_language" text,
	"news" boolean DEFAULT false NOT NULL,
	"digest" boolean DEFAULT false NOT NULL,
	"digest_day" date,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bot_chats_language_known" CHECK ("bot_chats"."language" in ('en', 'ru', 'de', 'kk')),
	CONSTRAINT "bot_chats_menu_language_known" CHECK ("bot_chats"."menu_language" in ('en', 'ru', 'de', 'kk'))
);
--> statement-breakpoint
CREATE INDEX "bot_chats_news_idx" ON "bot_chats" USING btree ("chat_id") WHERE "bot_chats"."news";--> statement-breakpoint
CREATE INDEX "bot_chats_digest_idx" ON "bot_chats" USING btree ("chat_id") WHERE "bot_chats"."digest";--> statement-breakpoint
ALTER TABLE "chat_outbox" DROP CONSTRAINT "chat_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "chat_outbox" ADD CONSTRAINT "chat_outbox_kind_known" CHECK ("chat_outbox"."kind" in ('refill_credited', 'refill_rejected', 'withdrawal_status', 'deposit_ended', 'verification_success', 'verification_denied', 'subscription_activated', 'withdrawals_locked', 'news', 'accruals_digest'));
