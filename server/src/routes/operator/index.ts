/**
 * Operator commands over HTTP, for the CLI when the embedded database is held by the running
 * server (PGlite is single-process), and for operators of a remote server. Every call needs
 * `Authorization: Bearer <operator token>`; a missing or wrong token gets 404, as if the operator
 * API did not exist.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { LocalizedText, TechnicalWorkReply } from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendError } from "../../errors";
import { getSetting, SETTING_KEYS, setMaintenance, setSetting } from "../../services/settings";
import { withErrors } from "../responses";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Compares in constant time (digests have equal lengths whatever the input). */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

export const MaintenanceRequest = z.object({
  enabled: z.boolean(),
  until: z.iso.datetime({ offset: true }).nullable().optional(),
  message: LocalizedText.partial().nullable().optional(),
});
export type MaintenanceRequest = z.infer<typeof MaintenanceRequest>;

const SettingKeyParam = z.object({ key: z.enum(SETTING_KEYS as [string, ...string[]]) });
const SettingValueReply = z.object({ key: z.string(), value: z.unknown() });

export const operatorRoutes: FastifyPluginAsyncZod<{ token: string }> = async (app, options) => {
  app.addHook("onRequest", async (request, reply) => {
    const header = request.headers.authorization;
    const given = header?.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : undefined;
    if (!tokenMatches(given, options.token)) return sendError(reply, "NOT_FOUND");
  });

  const security = [{ operator: [] }];

  app.post(
    "/operator/maintenance",
    {
      schema: {
        tags: ["operator"],
        summary: "Switch the maintenance notice on or off",
        security,
        body: MaintenanceRequest,
        response: withErrors({ 200: TechnicalWorkReply }),
      },
    },
    async (request) => setMaintenance(app.db, app.clock, request.body),
  );

  app.get(
    "/operator/settings/:key",
    {
      schema: {
        tags: ["operator"],
        summary: "Read any setting",
        security,
        params: SettingKeyParam,
        response: withErrors({ 200: SettingValueReply }),
      },
    },
    async (request) => {
      const key = request.params.key as (typeof SETTING_KEYS)[number];
      return { key, value: await getSetting(app.db, key) };
    },
  );

  app.put(
    "/operator/settings/:key",
    {
      schema: {
        tags: ["operator"],
        summary: "Write any setting (checked against the setting's schema)",
        security,
        params: SettingKeyParam,
        body: z.object({ value: z.unknown() }),
        response: withErrors({ 200: SettingValueReply }),
      },
    },
    async (request) => {
      const key = request.params.key as (typeof SETTING_KEYS)[number];
      return { key, value: await setSetting(app.db, app.clock, key, request.body.value) };
    },
  );
};
