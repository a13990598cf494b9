/** `GET /api/health`: added beside the spec's calls for load balancers and start scripts. */
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { KassaApp } from "../context";
import { defineRoute } from "./define";

export const HealthReply = z.object({ ok: z.literal(true) });

/** Not in the contract: the app never calls it. */
const health = { method: "GET", path: "/health", auth: false, tags: ["service"], response: HealthReply } as const;

export async function healthRoutes(app: KassaApp) {
  defineRoute(app, health, { summary: "The server runs and its database answers" }, async ({ ctx }) => {
    await ctx.db.execute(sql`select 1`);
    return { ok: true as const };
  });
}
