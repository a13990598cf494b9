-- The partners table at any team size (server/README.md, "Kept totals"): each closure row keeps the
-- USD value of its member's investments and of what the member brought the ancestor, at the rates of
-- the exchangeRates setting, so that sorting by either walks an index; a login search starts from a
-- trigram index of the logins.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "referral_links" ADD COLUMN "inv_usd" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "referral_links" ADD COLUMN "pr_usd" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
-- The USD price of each currency as the exchangeRates setting holds it (0 while there is no row yet:
-- the server writes every default at its start, and that insert recomputes the values below).
CREATE FUNCTION "kassa_usd_rates"(OUT usdt numeric, OUT btc numeric, OUT eth numeric, OUT ton numeric)
  LANGUAGE sql STABLE AS $$
  SELECT coalesce(max(value->'rates'->>'USDT')::numeric, 0), coalesce(max(value->'rates'->>'BTC')::numeric, 0),
         coalesce(max(value->'rates'->>'ETH')::numeric, 0), coalesce(max(value->'rates'->>'TON')::numeric, 0)
    FROM settings WHERE key = 'exchangeRates'
$$;--> statement-breakpoint
UPDATE "referral_links" l SET
    inv_usd = l.inv_usdt * r.usdt + l.inv_btc * r.btc + l.inv_eth * r.eth + l.inv_ton * r.ton,
    pr_usd = l.pr_usdt * r.usdt + l.pr_btc * r.btc + l.pr_eth * r.eth + l.pr_ton * r.ton
  FROM kassa_usd_rates() r
 WHERE l.inv_usdt + l.inv_btc + l.inv_eth + l.inv_ton + l.pr_usdt + l.pr_btc + l.pr_eth + l.pr_ton <> 0;--> statement-breakpoint
-- A new deposit: its principal joins its owner's investments in every closure row of the owner.
CREATE OR REPLACE FUNCTION "kassa_keep_investments"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE referral_links l SET inv_usdt = l.inv_usdt + s.usdt, inv_btc = l.inv_btc + s.btc, inv_eth = l.inv_eth + s.eth, inv_ton = l.inv_ton + s.ton,
         inv_usd = (l.inv_usdt + s.usdt) * r.usdt + (l.inv_btc + s.btc) * r.btc + (l.inv_eth + s.eth) * r.eth + (l.inv_ton + s.ton) * r.ton
    FROM (SELECT user_id, coalesce(sum(amount) filter (where currency = 'USDT'), 0) as usdt, coalesce(sum(amount) filter (where currency = 'BTC'), 0) as btc, coalesce(sum(amount) filter (where currency = 'ETH'), 0) as eth, coalesce(sum(amount) filter (where currency = 'TON'), 0) as ton FROM new_deposits GROUP BY user_id) s,
         kassa_usd_rates() r
   WHERE l.member_id = s.user_id;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Referral or matching income: what the depositor brought the beneficiary, and the line's profit.
CREATE OR REPLACE FUNCTION "kassa_keep_referral_profit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE referral_links l SET pr_usdt = l.pr_usdt + s.usdt, pr_btc = l.pr_btc + s.btc, pr_eth = l.pr_eth + s.eth, pr_ton = l.pr_ton + s.ton,
         pr_usd = (l.pr_usdt + s.usdt) * r.usdt + (l.pr_btc + s.btc) * r.btc + (l.pr_eth + s.eth) * r.eth + (l.pr_ton + s.ton) * r.ton
    FROM (SELECT beneficiary_id, source_user_id, coalesce(sum(amount) filter (where currency = 'USDT'), 0) as usdt, coalesce(sum(amount) filter (where currency = 'BTC'), 0) as btc, coalesce(sum(amount) filter (where currency = 'ETH'), 0) as eth, coalesce(sum(amount) filter (where currency = 'TON'), 0) as ton FROM new_earnings
           GROUP BY beneficiary_id, source_user_id) s,
         kassa_usd_rates() r
   WHERE l.ancestor_id = s.beneficiary_id AND l.member_id = s.source_user_id;
  INSERT INTO referral_line_totals AS t (user_id, line, pr_usdt, pr_btc, pr_eth, pr_ton)
  SELECT beneficiary_id, line, coalesce(sum(amount) filter (where currency = 'USDT'), 0) as usdt, coalesce(sum(amount) filter (where currency = 'BTC'), 0) as btc, coalesce(sum(amount) filter (where currency = 'ETH'), 0) as eth, coalesce(sum(amount) filter (where currency = 'TON'), 0) as ton FROM new_earnings
   GROUP BY beneficiary_id, line ORDER BY beneficiary_id, line
  ON CONFLICT (user_id, line) DO UPDATE SET pr_usdt = t.pr_usdt + excluded.pr_usdt,
    pr_btc = t.pr_btc + excluded.pr_btc, pr_eth = t.pr_eth + excluded.pr_eth, pr_ton = t.pr_ton + excluded.pr_ton;
  RETURN NULL;
END $$;--> statement-breakpoint
-- New rates: every closure row with money in it gets its USD values again (the rows of members who
-- have neither invested nor brought anything stay as they are).
CREATE FUNCTION "kassa_keep_usd_values"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.value->'rates' IS NOT DISTINCT FROM NEW.value->'rates' THEN RETURN NULL; END IF;
  UPDATE referral_links l SET
      inv_usd = l.inv_usdt * r.usdt + l.inv_btc * r.btc + l.inv_eth * r.eth + l.inv_ton * r.ton,
      pr_usd = l.pr_usdt * r.usdt + l.pr_btc * r.btc + l.pr_eth * r.eth + l.pr_ton * r.ton
    FROM kassa_usd_rates() r
   WHERE l.inv_usdt + l.inv_btc + l.inv_eth + l.inv_ton + l.pr_usdt + l.pr_btc + l.pr_eth + l.pr_ton <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "settings_keep_usd_values" AFTER INSERT OR UPDATE ON "settings"
  FOR EACH ROW WHEN (NEW.key = 'exchangeRates') EXECUTE FUNCTION "kassa_keep_usd_values"();--> statement-breakpoint
-- Every list is read line by line (one index range per line, merged): the indexes over all lines
-- give way to ones that end in the list's order. Ties sort by login; logins are unique.
DROP INDEX "referral_links_login_idx";--> statement-breakpoint
DROP INDEX "referral_links_registered_idx";--> statement-breakpoint
DROP INDEX "referral_links_line_registered_idx";--> statement-breakpoint
CREATE INDEX "referral_links_line_registered_idx" ON "referral_links" USING btree ("ancestor_id","line","registered_at",lower("login"));--> statement-breakpoint
CREATE INDEX "referral_links_line_inv_idx" ON "referral_links" USING btree ("ancestor_id","line","inv_usd",lower("login"));--> statement-breakpoint
CREATE INDEX "referral_links_line_inv_desc_idx" ON "referral_links" USING btree ("ancestor_id","line",(-"inv_usd"),lower("login"));--> statement-breakpoint
CREATE INDEX "referral_links_line_pr_idx" ON "referral_links" USING btree ("ancestor_id","line","pr_usd",lower("login"));--> statement-breakpoint
CREATE INDEX "referral_links_line_pr_desc_idx" ON "referral_links" USING btree ("ancestor_id","line",(-"pr_usd"),lower("login"));--> statement-breakpoint
CREATE INDEX "users_login_trgm_idx" ON "users" USING gin (lower("login") gin_trgm_ops);
--> statement-breakpoint
-- The change feed (server/src/db/change-feed.ts): a write of the payment systems announces `catalog`,
-- so every instance drops the list it keeps (a refill reads it from memory).
CREATE FUNCTION "kassa_notify_catalog"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kassa_changes', 'catalog');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "payment_systems_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "payment_systems"
  FOR EACH STATEMENT EXECUTE FUNCTION "kassa_notify_catalog"();
