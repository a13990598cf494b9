/**
 * The OpenAPI document, generated from the contract's zod schemas of every route, at
 * `/api/docs/json`, with Swagger UI at `/api/docs`. Must be registered before the routes.
 */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

export const DOCS_PREFIX = "/api/docs";

export async function registerDocs(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "Kassa cabinet API",
        version,
        description:
          "The calls of the Kassa investor cabinet. Amounts are decimal strings. Errors reply " +
          "`{ code, message, fields?, params? }` with the status of the error catalogue.",
      },
      tags: [
        { name: "settings", description: "Public settings, plans and payment systems" },
        { name: "service", description: "Calls added beside the spec's list" },
        { name: "operator", description: "Operator commands (Authorization: Bearer <operator token>)" },
        { name: "development", description: "Development helpers; absent in production" },
      ],
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "The session's refreshToken" },
          operator: { type: "http", scheme: "bearer", description: "The server's operator token" },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: "list", deepLinking: true, validatorUrl: null },
  });
}
