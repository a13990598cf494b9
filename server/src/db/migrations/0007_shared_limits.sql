CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "chat_outbox" DROP CONSTRAINT "chat_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_known";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "withdrawals_locked_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" USING btree ("expire");--> statement-breakpoint
ALTER TABLE "chat_outbox" ADD CONSTRAINT "chat_outbox_kind_known" CHECK ("chat_outbox"."kind" in ('refill_credited', 'refill_rejected', 'withdrawal_status', 'deposit_ended', 'verification_success', 'verification_denied', 'subscription_activated', 'withdrawals_locked'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_known" CHECK ("notifications"."kind" in ('refill_credited', 'refill_rejected', 'withdrawal_status', 'deposit_ended', 'verification_success', 'verification_denied', 'subscription_activated', 'withdrawals_locked'));