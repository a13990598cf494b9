/**
 * Every reply's way out: checked against its contract schema and written as JSON (Fastify's serializer for all
 * routes). A reply that is frozen through and through — a kept value, or one made once from a kept value
 * (`db/derived.ts`) — cannot change, so the JSON it was checked and written as is kept beside it and the same reply
 * is written again without a second check: in the reply's own slot when it has one (a kept reply, `REPLY_JSON`: no
 * lookup), else in a WeakMap of the route's (gone with the reply).
 */
import { ResponseSerializationError } from "fastify-type-provider-zod";
import { $ZodType, safeEncode } from "zod/v4/core";
import { type JsonSlot, REPLY_JSON } from "../db/change-feed";

/** Whether `value` and everything in it are frozen plain objects, arrays and primitives (a Date can still change). */
function frozenThrough(value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  if (!Object.isFrozen(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
  for (const inner of Object.values(value)) if (!frozenThrough(inner)) return false;
  return true;
}

function zodSchemaOf(schema: unknown): $ZodType {
  if (schema instanceof $ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (properties instanceof $ZodType) return properties;
  throw new Error(`A reply schema that is not a zod schema: ${JSON.stringify(schema)}`);
}

export function replySerializerCompiler({ schema, method, url }: { schema: unknown; method: string; url: string }) {
  const zodSchema = zodSchemaOf(schema);
  const written = new WeakMap<object, string>();
  return (data: unknown): string => {
    const slot =
      data !== null && typeof data === "object" ? (data as { [REPLY_JSON]?: JsonSlot })[REPLY_JSON] : undefined;
    if (slot !== undefined && slot.schema === zodSchema && slot.json !== null) return slot.json;
    const shared = data !== null && typeof data === "object" && Object.isFrozen(data);
    if (shared) {
      const json = written.get(data);
      if (json !== undefined) return json;
    }
    const result = safeEncode(zodSchema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    const json = JSON.stringify(result.data);
    if (shared && frozenThrough(data)) {
      // The slot serves the first schema that writes the reply; another route's keeps its JSON in its WeakMap.
      if (slot !== undefined && slot.schema === null) {
        slot.schema = zodSchema;
        slot.json = json;
      } else written.set(data, json);
    }
    return json;
  };
}
