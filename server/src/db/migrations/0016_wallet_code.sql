-- A withdrawal wallet's code has its own purpose ('wallet', so its message names a wallet change, not
-- a withdrawal), a stored wallet change is a notification ('wallet_changed'), in the app and in the chat.
ALTER TABLE "verification_codes" DROP CONSTRAINT "verification_codes_purpose_known";--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_purpose_known" CHECK ("verification_codes"."purpose" in ('phone', 'password_reset', 'withdrawal', 'wallet'));--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_known";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_known" CHECK ("notifications"."kind" in ('refill_credited', 'refill_rejected', 'withdrawal_status', 'deposit_ended', 'verification_success', 'verification_denied', 'subscription_activated', 'withdrawals_locked', 'wallet_changed'));--> statement-breakpoint
ALTER TABLE "chat_outbox" DROP CONSTRAINT "chat_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "chat_outbox" ADD CONSTRAINT "chat_outbox_kind_known" CHECK ("chat_outbox"."kind" in ('refill_credited', 'refill_rejected', 'withdrawal_status', 'deposit_ended', 'verification_success', 'verification_denied', 'subscription_activated', 'withdrawals_locked', 'wallet_changed', 'news', 'accruals_digest'));
