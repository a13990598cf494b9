-- The partners table's login search (server/README.md, "Kept totals"): the trigram index of the
-- logins takes each new login into the index at once instead of into a list of pending entries.
-- That list is only merged by a vacuum, which PGlite never runs by itself: every login registered
-- since the index was made stayed in it, each search read the whole list, and the planner, counting
-- it in, scanned every user instead (59–90 ms per search at 50,000 members). The entries pending
-- now are merged here.
ALTER INDEX "users_login_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('users_login_trgm_idx'::regclass);
