-- Chat delivery: an order of queueing per chat (seq), kept while messages wait; updates stored
-- with their body, answered at once and handled from the table.
ALTER TABLE "chat_outbox" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
CREATE INDEX "chat_outbox_waiting_idx" ON "chat_outbox" USING btree ("user_id","seq") WHERE "chat_outbox"."sent_at" is null and "chat_outbox"."failed_at" is null;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
UPDATE "telegram_updates" SET "handled_at" = "received_at";--> statement-breakpoint
CREATE INDEX "telegram_updates_waiting_idx" ON "telegram_updates" USING btree ("update_id") WHERE "telegram_updates"."handled_at" is null;--> statement-breakpoint
CREATE INDEX "telegram_updates_received_idx" ON "telegram_updates" USING btree ("received_at");
