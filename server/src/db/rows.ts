/** The rows of a statement run without drizzle's mapping: postgres.js answers the rows, PGlite `{ rows }`. */
export function resultRows<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
