CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "notifications_kind_known" CHECK ("notifications"."kind" in ('refill_credited', 'refill_rejected', 'withdrawal_status', 'deposit_ended', 'verification_success', 'verification_denied', 'subscription_activated'))
);
--> statement-breakpoint
CREATE TABLE "verification_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"full_name" text NOT NULL,
	"date_of_birth" text NOT NULL,
	"family_status" text NOT NULL,
	"document_number" text NOT NULL,
	"document_photo" text NOT NULL,
	"login_photo" text NOT NULL,
	"wallet_photo" text NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "verification_requests_status_known" CHECK ("verification_requests"."status" in ('in_process', 'success', 'denied')),
	CONSTRAINT "verification_requests_family_known" CHECK ("verification_requests"."family_status" in ('single', 'married', 'divorced', 'widowed'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "avatar_file" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "subscription_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD CONSTRAINT "verification_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "verification_requests_user_idx" ON "verification_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "verification_requests_status_idx" ON "verification_requests" USING btree ("status","created_at");