CREATE TABLE "operation_totals" (
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"type" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"credited" numeric(38, 18) DEFAULT '0' NOT NULL,
	CONSTRAINT "operation_totals_user_id_currency_type_pk" PRIMARY KEY("user_id","currency","type")
);
--> statement-breakpoint
CREATE TABLE "referral_line_totals" (
	"user_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	"pr_usdt" numeric(38, 18) DEFAULT '0' NOT NULL,
	"pr_btc" numeric(38, 18) DEFAULT '0' NOT NULL,
	"pr_eth" numeric(38, 18) DEFAULT '0' NOT NULL,
	"pr_ton" numeric(38, 18) DEFAULT '0' NOT NULL,
	CONSTRAINT "referral_line_totals_user_id_line_pk" PRIMARY KEY("user_id","line")
);
--> statement-breakpoint
CREATE TABLE "referral_links" (
	"ancestor_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"login" text NOT NULL,
	"registered_at" timestamp with time zone NOT NULL,
	"inv_usdt" numeric(38, 18) DEFAULT '0' NOT NULL,
	"inv_btc" numeric(38, 18) DEFAULT '0' NOT NULL,
	"inv_eth" numeric(38, 18) DEFAULT '0' NOT NULL,
	"inv_ton" numeric(38, 18) DEFAULT '0' NOT NULL,
	"pr_usdt" numeric(38, 18) DEFAULT '0' NOT NULL,
	"pr_btc" numeric(38, 18) DEFAULT '0' NOT NULL,
	"pr_eth" numeric(38, 18) DEFAULT '0' NOT NULL,
	"pr_ton" numeric(38, 18) DEFAULT '0' NOT NULL,
	CONSTRAINT "referral_links_ancestor_id_member_id_pk" PRIMARY KEY("ancestor_id","member_id")
);
--> statement-breakpoint
ALTER TABLE "operation_totals" ADD CONSTRAINT "operation_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_line_totals" ADD CONSTRAINT "referral_line_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_links" ADD CONSTRAINT "referral_links_ancestor_id_users_id_fk" FOREIGN KEY ("ancestor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_links" ADD CONSTRAINT "referral_links_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "referral_links_member_idx" ON "referral_links" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "referral_links_login_idx" ON "referral_links" USING btree ("ancestor_id",lower("login"));--> statement-breakpoint
CREATE INDEX "referral_links_line_idx" ON "referral_links" USING btree ("ancestor_id","line",lower("login"));--> statement-breakpoint
CREATE INDEX "referral_links_registered_idx" ON "referral_links" USING btree ("ancestor_id","registered_at");--> statement-breakpoint
CREATE INDEX "referral_links_line_registered_idx" ON "referral_links" USING btree ("ancestor_id","line","registered_at");--> statement-breakpoint
CREATE INDEX "operations_user_seq_idx" ON "operations" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "operations_user_type_idx" ON "operations" USING btree ("user_id","type","created_at","seq");--> statement-breakpoint
CREATE INDEX "operations_user_currency_idx" ON "operations" USING btree ("user_id","currency","created_at","seq");--> statement-breakpoint
-- Kept totals: filled from what exists, then kept by the triggers below (server/README.md, "Kept
-- totals"). The closure reaches 10 lines: the most the referralLines setting allows.
INSERT INTO "referral_links" ("ancestor_id", "member_id", "line", "login", "registered_at")
WITH RECURSIVE up(member_id, ancestor_id, line) AS (
  SELECT id, inviter_id, 1 FROM users WHERE inviter_id IS NOT NULL
  UNION ALL
  SELECT up.member_id, u.inviter_id, up.line + 1 FROM up JOIN users u ON u.id = up.ancestor_id
   WHERE u.inviter_id IS NOT NULL AND up.line < 10
)
SELECT up.ancestor_id, up.member_id, up.line, m.login, m.created_at FROM up JOIN users m ON m.id = up.member_id;--> statement-breakpoint
UPDATE "referral_links" l SET inv_usdt = l.inv_usdt + s.usdt, inv_btc = l.inv_btc + s.btc, inv_eth = l.inv_eth + s.eth, inv_ton = l.inv_ton + s.ton
  FROM (SELECT user_id, coalesce(sum(amount) filter (where currency = 'USDT'), 0) as usdt, coalesce(sum(amount) filter (where currency = 'BTC'), 0) as btc, coalesce(sum(amount) filter (where currency = 'ETH'), 0) as eth, coalesce(sum(amount) filter (where currency = 'TON'), 0) as ton FROM deposits GROUP BY user_id) s
 WHERE l.member_id = s.user_id;--> statement-breakpoint
UPDATE "referral_links" l SET pr_usdt = l.pr_usdt + s.usdt, pr_btc = l.pr_btc + s.btc, pr_eth = l.pr_eth + s.eth, pr_ton = l.pr_ton + s.ton
  FROM (SELECT beneficiary_id, source_user_id, coalesce(sum(amount) filter (where currency = 'USDT'), 0) as usdt, coalesce(sum(amount) filter (where currency = 'BTC'), 0) as btc, coalesce(sum(amount) filter (where currency = 'ETH'), 0) as eth, coalesce(sum(amount) filter (where currency = 'TON'), 0) as ton FROM referral_earnings GROUP BY beneficiary_id, source_user_id) s
 WHERE l.ancestor_id = s.beneficiary_id AND l.member_id = s.source_user_id;--> statement-breakpoint
INSERT INTO "referral_line_totals" ("user_id", "line", "members")
SELECT ancestor_id, line, count(*) FROM referral_links GROUP BY ancestor_id, line;--> statement-breakpoint
INSERT INTO "referral_line_totals" AS t ("user_id", "line", "pr_usdt", "pr_btc", "pr_eth", "pr_ton")
SELECT beneficiary_id, line, coalesce(sum(amount) filter (where currency = 'USDT'), 0) as usdt, coalesce(sum(amount) filter (where currency = 'BTC'), 0) as btc, coalesce(sum(amount) filter (where currency = 'ETH'), 0) as eth, coalesce(sum(amount) filter (where currency = 'TON'), 0) as ton FROM referral_earnings GROUP BY beneficiary_id, line
ON CONFLICT ("user_id", "line") DO UPDATE SET pr_usdt = excluded.pr_usdt, pr_btc = excluded.pr_btc,
  pr_eth = excluded.pr_eth, pr_ton = excluded.pr_ton;--> statement-breakpoint
INSERT INTO "operation_totals" ("user_id", "currency", "type", "count", "credited")
SELECT user_id, currency, type, count(*), coalesce(sum(amount) FILTER (WHERE amount > 0), 0)
  FROM operations GROUP BY user_id, currency, type;--> statement-breakpoint
-- A new user: a closure row for each inviter above it, and one more member on that inviter's line.
-- Rows are locked in key order, so concurrent registrations cannot wait on each other in a circle.
CREATE FUNCTION "kassa_keep_referral_links"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH RECURSIVE up(member_id, ancestor_id, line) AS (
    SELECT n.id, n.inviter_id, 1 FROM new_users n WHERE n.inviter_id IS NOT NULL
    UNION ALL
    SELECT up.member_id, u.inviter_id, up.line + 1 FROM up JOIN users u ON u.id = up.ancestor_id
     WHERE u.inviter_id IS NOT NULL AND up.line < 10
  ), linked AS (
    INSERT INTO referral_links (ancestor_id, member_id, line, login, registered_at)
    SELECT up.ancestor_id, up.member_id, up.line, n.login, n.created_at FROM up JOIN new_users n ON n.id = up.member_id
    RETURNING ancestor_id, line
  )
  INSERT INTO referral_line_totals AS t (user_id, line, members)
  SELECT ancestor_id, line, count(*) FROM linked GROUP BY ancestor_id, line ORDER BY ancestor_id, line
  ON CONFLICT (user_id, line) DO UPDATE SET members = t.members + excluded.members;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_keep_referral_links" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_users
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_keep_referral_links"();--> statement-breakpoint
-- A new deposit: its principal joins its owner's investments in every closure row of the owner.
CREATE FUNCTION "kassa_keep_investments"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE referral_links l SET inv_usdt = l.inv_usdt + s.usdt, inv_btc = l.inv_btc + s.btc, inv_eth = l.inv_eth + s.eth, inv_ton = l.inv_ton + s.ton
    FROM (SELECT user_id, coalesce(sum(amount) filter (where currency = 'USDT'), 0) as usdt, coalesce(sum(amount) filter (where currency = 'BTC'), 0) as btc, coalesce(sum(amount) filter (where currency = 'ETH'), 0) as eth, coalesce(sum(amount) filter (where currency = 'TON'), 0) as ton FROM new_deposits GROUP BY user_id) s
   WHERE l.member_id = s.user_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "deposits_keep_investments" AFTER INSERT ON "deposits" REFERENCING NEW TABLE AS new_deposits
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_keep_investments"();--> statement-breakpoint
-- Referral or matching income: what the depositor brought the beneficiary, and the line's profit.
CREATE FUNCTION "kassa_keep_referral_profit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE referral_links l SET pr_usdt = l.pr_usdt + s.usdt, pr_btc = l.pr_btc + s.btc, pr_eth = l.pr_eth + s.eth, pr_ton = l.pr_ton + s.ton
    FROM (SELECT beneficiary_id, source_user_id, coalesce(sum(amount) filter (where currency = 'USDT'), 0) as usdt, coalesce(sum(amount) filter (where currency = 'BTC'), 0) as btc, coalesce(sum(amount) filter (where currency = 'ETH'), 0) as eth, coalesce(sum(amount) filter (where currency = 'TON'), 0) as ton FROM new_earnings
           GROUP BY beneficiary_id, source_user_id) s
   WHERE l.ancestor_id = s.beneficiary_id AND l.member_id = s.source_user_id;
  INSERT INTO referral_line_totals AS t (user_id, line, pr_usdt, pr_btc, pr_eth, pr_ton)
  SELECT beneficiary_id, line, coalesce(sum(amount) filter (where currency = 'USDT'), 0) as usdt, coalesce(sum(amount) filter (where currency = 'BTC'), 0) as btc, coalesce(sum(amount) filter (where currency = 'ETH'), 0) as eth, coalesce(sum(amount) filter (where currency = 'TON'), 0) as ton FROM new_earnings
   GROUP BY beneficiary_id, line ORDER BY beneficiary_id, line
  ON CONFLICT (user_id, line) DO UPDATE SET pr_usdt = t.pr_usdt + excluded.pr_usdt,
    pr_btc = t.pr_btc + excluded.pr_btc, pr_eth = t.pr_eth + excluded.pr_eth, pr_ton = t.pr_ton + excluded.pr_ton;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "referral_earnings_keep_profit" AFTER INSERT ON "referral_earnings" REFERENCING NEW TABLE AS new_earnings
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_keep_referral_profit"();--> statement-breakpoint
-- A new operation: its user's count and credited sum by currency and type.
CREATE FUNCTION "kassa_keep_operation_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO operation_totals AS t (user_id, currency, type, count, credited)
  SELECT user_id, currency, type, count(*), coalesce(sum(amount) FILTER (WHERE amount > 0), 0) FROM new_operations
   GROUP BY user_id, currency, type ORDER BY user_id, currency, type
  ON CONFLICT (user_id, currency, type) DO UPDATE SET count = t.count + excluded.count,
    credited = t.credited + excluded.credited;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "operations_keep_totals" AFTER INSERT ON "operations" REFERENCING NEW TABLE AS new_operations
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_keep_operation_totals"();