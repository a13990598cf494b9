/**
 * How deep a request body may nest. Every body of the API is a flat object (a few levels at most);
 * anything deeper is refused when the body is parsed, before anything walks it, so no code that walks
 * a body (validation, the idempotency fingerprint) can be driven into a stack overflow.
 */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests deeper than `limit` levels; walks iteratively, whatever the depth. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (node === null || typeof node !== "object") continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
