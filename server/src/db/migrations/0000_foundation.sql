CREATE TABLE "news" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" jsonb NOT NULL,
	"body" jsonb NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_systems" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"network" text NOT NULL,
	"refill_enabled" boolean DEFAULT true NOT NULL,
	"withdrawal_enabled" boolean DEFAULT true NOT NULL,
	"min_withdrawal" numeric(38, 18) NOT NULL,
	"max_withdrawal" numeric(38, 18) NOT NULL,
	"withdrawal_fee_percent" numeric(20, 8) DEFAULT '0' NOT NULL,
	"address" text NOT NULL,
	"address_pattern" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "payment_systems_withdrawal_ordered" CHECK ("payment_systems"."min_withdrawal" >= 0 and "payment_systems"."max_withdrawal" >= "payment_systems"."min_withdrawal"),
	CONSTRAINT "payment_systems_fee_range" CHECK ("payment_systems"."withdrawal_fee_percent" >= 0 and "payment_systems"."withdrawal_fee_percent" < 100)
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" jsonb NOT NULL,
	"currency" text NOT NULL,
	"daily_yield_percent" numeric(20, 8) NOT NULL,
	"duration_days" integer NOT NULL,
	"min_amount" numeric(38, 18) NOT NULL,
	"max_amount" numeric(38, 18) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "plans_amounts_ordered" CHECK ("plans"."min_amount" >= 0 and "plans"."max_amount" >= "plans"."min_amount"),
	CONSTRAINT "plans_duration_positive" CHECK ("plans"."duration_days" > 0),
	CONSTRAINT "plans_yield_non_negative" CHECK ("plans"."daily_yield_percent" >= 0)
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_options" (
	"id" text PRIMARY KEY NOT NULL,
	"title" jsonb NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"currency" text NOT NULL,
	"duration_days" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "subscription_options_price_non_negative" CHECK ("subscription_options"."price" >= 0),
	CONSTRAINT "subscription_options_duration_positive" CHECK ("subscription_options"."duration_days" > 0)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"login" text NOT NULL,
	"password_hash" text,
	"full_name" text,
	"email" text,
	"phone" text,
	"language" text DEFAULT 'ru' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_phone_unique" UNIQUE("phone")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_lower_unique" ON "users" USING btree (lower("login"));