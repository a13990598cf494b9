-- Notices through the investor's code channel (e-mail, SMS, or the chat when it is the code channel and the chat outbox
-- does not carry them) and news by e-mail, durable: written in the event's transaction, sent by the `notice-outbox` job
-- (services/notice-outbox.ts) with retries and back-off, given up after 72 hours or on a permanent refusal.
-- A worker claims a row by moving `next_attempt_at` past its lease (FOR UPDATE SKIP LOCKED): one instance sends it.
CREATE TABLE "notice_outbox" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "params" jsonb NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone NOT NULL,
  "sent_at" timestamp with time zone,
  "failed_at" timestamp with time zone,
  "last_error" text,
  CONSTRAINT "notice_outbox_kind_known" CHECK ("kind" in ('withdrawal_status', 'wallet_changed', 'password_changed', 'news'))
);--> statement-breakpoint
CREATE INDEX "notice_outbox_due_idx" ON "notice_outbox" ("next_attempt_at") WHERE "sent_at" IS NULL AND "failed_at" IS NULL;--> statement-breakpoint
-- News by e-mail: on until the investor unsubscribes (the List-Unsubscribe link of a news e-mail).
ALTER TABLE "users" ADD COLUMN "email_news" boolean DEFAULT true NOT NULL;
