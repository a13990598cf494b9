/**
 * The OpenAPI document, generated from the contract's zod schemas of every route, at
 * `/api/docs/json`, with Swagger UI at `/api/docs`. Must be registered before the routes. In
 * production the document leaves out the operator routes (and the development ones do not exist):
 * it is public, and an attacker needs no map of the operator's door.
 */

import { ApiErrorBody } from "@contract";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";

const DOCS_PREFIX = "/api/docs";

export async function registerDocs(
  app: FastifyInstance,
  version: string,
  options: { production?: boolean } = {},
): Promise<void> {
  const hideOperator = options.production ?? false;
  // Imported only when API_DOCS is on.
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import("@fastify/swagger"),
    import("@fastify/swagger-ui"),
  ]);
  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      // The document's paths carry the `/api` prefix: they are relative to the server's own origin.
      servers: [{ url: "/", description: "This Kassa server" }],
      info: {
        title: "Kassa cabinet API",
        version,
        // The operator's terms of use, as the app shows them (relative to this server, as the paths are).
        license: { name: "The operator's terms of use", url: "/terms" },
        description:
          "The calls of the Kassa investor cabinet. Amounts are decimal strings. Errors reply " +
          "`{ code, message, fields?, params? }` with the status of the error catalogue.\n\n" +
          "Signed-in calls send the session's `refreshToken` as `Authorization: Bearer <token>`; a missing, " +
          "unknown, expired (30 days) or revoked token is 401 `SESSION_TIMEOUT`. Rate-limited calls answer " +
          "429 `RATE_LIMITED` with `Retry-After` and `params.retryAfter` (seconds). While maintenance is on, " +
          "calls other than settings, health, docs, dev and operator answer 503 `MAINTENANCE`.\n\n" +
          "Added beside the cabinet's calls: `POST /auth/logout` (revokes the caller's token), `GET /user/me` " +
          "(the signed-in user, to refresh the saved user object), `PATCH /funds/refills/{id}` (attach the " +
          "transaction hash while a refill waits), `POST /funds/payments/{id}/resend` and " +
          "`POST /funds/payments/{id}/cancel` (a withdrawal's code again; cancel one awaiting its code), `GET /health`.\n\n" +
          "Money: every change of a balance is an operation (balance = sum of its operations); amounts are " +
          "kept with the currency's scale and anything paid to the user is rounded down to it.",
      },
      tags: [
        { name: "auth", description: "Sign-in, registration, phone code, password reset, logout" },
        {
          name: "user",
          description: "The signed-in user's own data: profile, balance, statistics, exchange, operations",
        },
        { name: "funds", description: "Refills, deposits, withdrawals and crypto cases" },
        { name: "partners", description: "Referral tree, referral income and turnover bonuses" },
        { name: "settings", description: "Public settings, plans and payment systems" },
        { name: "service", description: "Calls added beside the cabinet's list" },
        ...(hideOperator
          ? []
          : [
              { name: "operator", description: "Operator commands (Authorization: Bearer <operator token>)" },
              { name: "development", description: "Development helpers; absent in production" },
            ]),
      ],
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "The session's refreshToken" },
          ...(hideOperator
            ? {}
            : { operator: { type: "http", scheme: "bearer", description: "The server's operator token" } }),
        },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      // The router ignores a trailing slash (the spec's `/user/operations/` answers without it too), so
      // the document names each path without one, as OpenAPI tools expect.
      const output = {
        ...transformed,
        url: transformed.url.replace(/(.)\/$/, "$1"),
        schema: typedNullables(transformed.schema) as typeof transformed.schema,
      };
      if (input.url === AVATAR_URL) return { ...output, schema: { ...output.schema, response: avatarResponses() } };
      if (hideOperator && input.url.startsWith("/api/operator"))
        return { ...output, schema: { ...output.schema, hide: true } };
      return output;
    },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: "list", deepLinking: true, validatorUrl: null },
  });
}

/** The avatar call answers with the file itself, which no zod schema describes: its replies as the document gives them. */
const AVATAR_URL = "/api/user/avatar/:file";
function avatarResponses() {
  const image = { schema: { type: "string", format: "binary" } };
  return {
    200: { description: "The image", content: { "image/png": image, "image/jpeg": image } },
    404: {
      description: "No avatar by that name",
      content: { "application/json": { schema: z.toJSONSchema(ApiErrorBody, { target: "openapi-3.0" }) } },
    },
  };
}

/**
 * OpenAPI 3.0 allows `nullable` only beside a `type`: a nullable union of objects (a notification's
 * target) comes out of the zod conversion as `oneOf` + `nullable`, and gets the members' one type.
 */
function typedNullables(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(typedNullables);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = typedNullables(value);
  if (out.nullable === true && out.type === undefined) {
    const members = (out.oneOf ?? out.anyOf) as { type?: unknown }[] | undefined;
    const types = new Set(members?.map((m) => m.type));
    if (types.size === 1 && typeof [...types][0] === "string") out.type = [...types][0];
  }
  return out;
}
