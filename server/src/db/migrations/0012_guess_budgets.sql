-- Wrong guesses in a row per account (server/src/services/auth.ts): the password reset's codes stop
-- being sent and accepted once they reach the lock, until the owner signs in another way.
CREATE TABLE "guess_failures" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "guess_failures_user_id_kind_pk" PRIMARY KEY("user_id","kind"),
	CONSTRAINT "guess_failures_kind_known" CHECK ("guess_failures"."kind" in ('password_reset'))
);
--> statement-breakpoint
ALTER TABLE "guess_failures" ADD CONSTRAINT "guess_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
