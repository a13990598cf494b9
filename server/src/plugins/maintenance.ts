/**
 * While the operator's maintenance switch (`technicalWork`) is on, API calls answer 503
 * MAINTENANCE, except those the maintenance page and the operator still need: public settings
 * (the app polls `technical_work`), health, docs, development helpers and operator commands.
 */
import type { FastifyInstance } from "fastify";
import { sendError } from "../errors";
import type { SettingValue } from "../services/setting-defs";
import { getSetting } from "../services/settings";
import { isApiPath } from "./static-app";

const OPEN_DURING_MAINTENANCE = ["/api/settings/", "/api/dev/", "/api/operator/"];

function isOpenDuringMaintenance(path: string): boolean {
  if (path === "/api/health" || path === "/api/health/ready" || path === "/api/docs" || path.startsWith("/api/docs/"))
    return true;
  return OPEN_DURING_MAINTENANCE.some((prefix) => path.startsWith(prefix));
}

export function registerMaintenance(app: FastifyInstance): void {
  // A callback hook: the kept setting (every call reads it) lets the call go on at once, without a turn of the event loop.
  app.addHook("onRequest", (request, reply, done) => {
    const path = request.url.split("?", 1)[0] ?? "";
    if (!isApiPath(path) || isOpenDuringMaintenance(path)) return done();
    const closed = (work: SettingValue<"technicalWork">) => {
      if (!work.enabled) return done();
      if (work.until) {
        const seconds = Math.ceil((new Date(work.until).getTime() - app.clock.now().getTime()) / 1000);
        if (seconds > 0) reply.header("retry-after", String(seconds));
      }
      sendError(reply, "MAINTENANCE");
    };
    const work = getSetting(app.db, "technicalWork");
    if (work instanceof Promise) work.then(closed, done);
    else closed(work);
  });
}
