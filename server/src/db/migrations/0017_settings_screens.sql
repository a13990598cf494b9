-- Codes that confirm the investor's e-mail (Settings → Security), sent to the e-mail only.
ALTER TABLE "verification_codes" DROP CONSTRAINT "verification_codes_purpose_known";--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_purpose_known" CHECK ("verification_codes"."purpose" in ('phone', 'password_reset', 'withdrawal', 'wallet', 'email'));
