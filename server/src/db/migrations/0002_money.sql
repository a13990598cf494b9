CREATE TABLE "accruals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deposit_id" uuid NOT NULL,
	"day_index" integer NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "accruals_day_positive" CHECK ("accruals"."day_index" >= 1),
	CONSTRAINT "accruals_amount_non_negative" CHECK ("accruals"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "balances" (
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(38, 18) DEFAULT '0' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balances_user_id_currency_pk" PRIMARY KEY("user_id","currency"),
	CONSTRAINT "balances_amount_non_negative" CHECK ("balances"."amount" >= 0),
	CONSTRAINT "balances_currency_known" CHECK ("balances"."currency" in ('USDT', 'BTC', 'ETH', 'TON'))
);
--> statement-breakpoint
CREATE TABLE "crypto_cases" (
	"id" text PRIMARY KEY NOT NULL,
	"name" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"risk_level" text NOT NULL,
	"plan_ids" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "crypto_cases_risk_level_known" CHECK ("crypto_cases"."risk_level" in ('low', 'medium', 'high'))
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"plan_id" text NOT NULL,
	"case_id" text,
	"currency" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"daily_yield_percent" numeric(20, 8) NOT NULL,
	"duration_days" integer NOT NULL,
	"daily_income" numeric(38, 18) NOT NULL,
	"accrued_held" numeric(38, 18) DEFAULT '0' NOT NULL,
	"days_accrued" integer DEFAULT 0 NOT NULL,
	"auto_invest" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"returned" numeric(38, 18),
	"forfeited" numeric(38, 18),
	"reinvested_into" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "deposits_status_known" CHECK ("deposits"."status" in ('active', 'completed', 'closed')),
	CONSTRAINT "deposits_amount_positive" CHECK ("deposits"."amount" > 0),
	CONSTRAINT "deposits_accrued_non_negative" CHECK ("deposits"."accrued_held" >= 0 and "deposits"."daily_income" >= 0),
	CONSTRAINT "deposits_days_in_term" CHECK ("deposits"."days_accrued" >= 0 and "deposits"."days_accrued" <= "deposits"."duration_days"),
	CONSTRAINT "deposits_duration_positive" CHECK ("deposits"."duration_days" > 0)
);
--> statement-breakpoint
CREATE TABLE "operations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"type" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"deposit_id" uuid,
	"refill_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"meta" jsonb,
	CONSTRAINT "operations_type_known" CHECK ("operations"."type" in ('accrual', 'referral', 'matching', 'bonus', 'plan', 'refill', 'exchange', 'deposit_return', 'withdrawal', 'subscription')),
	CONSTRAINT "operations_currency_known" CHECK ("operations"."currency" in ('USDT', 'BTC', 'ETH', 'TON')),
	CONSTRAINT "operations_amount_non_zero" CHECK ("operations"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "refills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"payment_system_id" text NOT NULL,
	"currency" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"amount_requested" numeric(38, 18) NOT NULL,
	"amount_credited" numeric(38, 18),
	"tx_hash" text,
	"status" text DEFAULT 'waiting' NOT NULL,
	"note" text,
	"created_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "refills_status_known" CHECK ("refills"."status" in ('waiting', 'replenished', 'rejected')),
	CONSTRAINT "refills_amount_requested_positive" CHECK ("refills"."amount_requested" > 0),
	CONSTRAINT "refills_credited_when_replenished" CHECK (("refills"."status" = 'replenished') = ("refills"."amount_credited" is not null) and coalesce("refills"."amount_credited", 1) > 0)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "current_currency" text DEFAULT 'USDT' NOT NULL;--> statement-breakpoint
ALTER TABLE "accruals" ADD CONSTRAINT "accruals_deposit_id_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."deposits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_case_id_crypto_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."crypto_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_reinvested_into_deposits_id_fk" FOREIGN KEY ("reinvested_into") REFERENCES "public"."deposits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_deposit_id_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."deposits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_refill_id_refills_id_fk" FOREIGN KEY ("refill_id") REFERENCES "public"."refills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refills" ADD CONSTRAINT "refills_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refills" ADD CONSTRAINT "refills_payment_system_id_payment_systems_id_fk" FOREIGN KEY ("payment_system_id") REFERENCES "public"."payment_systems"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accruals_deposit_day_unique" ON "accruals" USING btree ("deposit_id","day_index");--> statement-breakpoint
CREATE INDEX "deposits_user_idx" ON "deposits" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "deposits_active_idx" ON "deposits" USING btree ("status","started_at");--> statement-breakpoint
CREATE INDEX "operations_user_idx" ON "operations" USING btree ("user_id","created_at","seq");--> statement-breakpoint
CREATE INDEX "operations_deposit_idx" ON "operations" USING btree ("deposit_id");--> statement-breakpoint
CREATE INDEX "refills_user_idx" ON "refills" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "refills_status_idx" ON "refills" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_current_currency_known" CHECK ("users"."current_currency" in ('USDT', 'BTC', 'ETH', 'TON'));