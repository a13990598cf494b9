/** `GET /api/health`: added beside the spec's calls for load balancers and start scripts. */
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { withErrors } from "./responses";

export const HealthReply = z.object({ ok: z.literal(true) });

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["service"],
        summary: "The server runs and its database answers",
        response: withErrors({ 200: HealthReply }),
      },
    },
    async () => {
      await app.db.execute(sql`select 1`);
      return { ok: true as const };
    },
  );
};
