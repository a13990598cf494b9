CREATE TABLE "paid_bonuses" (
	"user_id" uuid NOT NULL,
	"bonus_index" integer NOT NULL,
	"currency" text NOT NULL,
	"award" numeric(38, 18) NOT NULL,
	"turnover" numeric(38, 18) NOT NULL,
	"operation_id" uuid,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "paid_bonuses_user_id_bonus_index_pk" PRIMARY KEY("user_id","bonus_index")
);
--> statement-breakpoint
CREATE TABLE "referral_earnings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"beneficiary_id" uuid NOT NULL,
	"source_user_id" uuid NOT NULL,
	"deposit_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"line" integer NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"operation_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "referral_earnings_kind_known" CHECK ("referral_earnings"."kind" in ('referral', 'matching')),
	CONSTRAINT "referral_earnings_amount_positive" CHECK ("referral_earnings"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "referral_turnover" (
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(38, 18) DEFAULT '0' NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "referral_turnover_user_id_currency_pk" PRIMARY KEY("user_id","currency")
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"user_id" uuid NOT NULL,
	"payment_system_id" text NOT NULL,
	"address" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wallets_user_id_payment_system_id_pk" PRIMARY KEY("user_id","payment_system_id")
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"payment_system_id" text NOT NULL,
	"currency" text NOT NULL,
	"network" text NOT NULL,
	"wallet" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"amount_to_receive" numeric(38, 18) NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"note" text,
	"created_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"processed_at" timestamp with time zone,
	CONSTRAINT "withdrawals_status_known" CHECK ("withdrawals"."status" in ('awaiting_code', 'pending', 'on_inspection', 'success', 'rejected', 'error', 'cancelled')),
	CONSTRAINT "withdrawals_amounts" CHECK ("withdrawals"."amount" > 0 and "withdrawals"."fee" >= 0 and "withdrawals"."amount_to_receive" = "withdrawals"."amount" - "withdrawals"."fee"),
	CONSTRAINT "withdrawals_success_has_hash" CHECK ("withdrawals"."status" <> 'success' or "withdrawals"."tx_hash" is not null)
);
--> statement-breakpoint
ALTER TABLE "paid_bonuses" ADD CONSTRAINT "paid_bonuses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paid_bonuses" ADD CONSTRAINT "paid_bonuses_operation_id_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_earnings" ADD CONSTRAINT "referral_earnings_beneficiary_id_users_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_earnings" ADD CONSTRAINT "referral_earnings_source_user_id_users_id_fk" FOREIGN KEY ("source_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_earnings" ADD CONSTRAINT "referral_earnings_deposit_id_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."deposits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_earnings" ADD CONSTRAINT "referral_earnings_operation_id_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_turnover" ADD CONSTRAINT "referral_turnover_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_payment_system_id_payment_systems_id_fk" FOREIGN KEY ("payment_system_id") REFERENCES "public"."payment_systems"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_payment_system_id_payment_systems_id_fk" FOREIGN KEY ("payment_system_id") REFERENCES "public"."payment_systems"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "referral_earnings_once" ON "referral_earnings" USING btree ("deposit_id","beneficiary_id","kind");--> statement-breakpoint
CREATE INDEX "referral_earnings_beneficiary_idx" ON "referral_earnings" USING btree ("beneficiary_id","source_user_id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status","created_at");