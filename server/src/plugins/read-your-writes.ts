/**
 * Read-your-writes across instances on one PostgreSQL (docs/architecture.md#read-your-writes). A reply to a
 * successful write carries `Kassa-Seen`: the database's WAL position after its commit, as 16 hex digits
 * (ChangeFeed.position). The app sends the highest one it got back with every call of the same session; an instance that has not heard every change up to it yet
 * (its change feed lags the other instance's commit by a moment) waits until it has — one notification of its
 * own, sent and heard back, since notifications arrive in commit order — so what it kept for the investor is
 * no older than the investor's own last write. An instance already past it checks a number and goes on. On
 * PGlite there is one process and it hears every change at once: nothing is sent.
 */
import type { FastifyInstance } from "fastify";
import { keptOf } from "../db/change-feed";
import type { Database } from "../db/client";
import { isApiPath } from "./static-app";

const SEEN_HEADER = "kassa-seen";

export function registerReadYourWrites(app: FastifyInstance, db: Database): void {
  const feed = keptOf(db)?.feed;
  if (!feed?.shared) return;
  app.addHook("onRequest", (request, _reply, done) => {
    const seen = request.headers[SEEN_HEADER];
    if (typeof seen !== "string") return done();
    feed.reach(seen).then(() => done(), done);
  });
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.method === "GET" || request.method === "HEAD" || reply.statusCode >= 400 || !isApiPath(request.url))
      return done(null, payload);
    feed.position().then(
      (at) => {
        if (at) reply.header(SEEN_HEADER, at);
        done(null, payload);
      },
      // Without the position the app simply sends the one it had: no reply fails for it.
      () => done(null, payload),
    );
  });
}
