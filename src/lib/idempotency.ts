/**
 * One `Idempotency-Key` per user intent (docs/decisions.md#exactly-once-money-calls). A money call (a route the
 * contract flags `idempotent`) gets a key when the user submits; while the same call with the same input is
 * tried again (a double tap, a retry after a lost connection or a timeout) it keeps that key, so the server
 * answers with the first reply instead of spending twice. After a success, or once the input changes, the next
 * submit is a new intent with a new key.
 */

/** JSON with object keys sorted: the same input always reads the same. */
function canonical(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
}

function newKey(): string {
  if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  // Older engines: 128 random bits as hex.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

interface Intent {
  input: string;
  key: string;
}

/** The open intent of each money call, by the contract's route name. */
export class IntentKeys {
  private readonly open = new Map<string, Intent>();

  constructor(private readonly generate: () => string = newKey) {}

  /** The key for calling `scope` with `input`: the open intent's when the input is the same, else a new one. */
  keyFor(scope: string, input: unknown): string {
    const text = canonical(input);
    const current = this.open.get(scope);
    if (current && current.input === text) return current.key;
    const intent = { input: text, key: this.generate() };
    this.open.set(scope, intent);
    return intent.key;
  }

  /** The call with `key` succeeded: that intent is done, the next submit is a new one. */
  succeeded(scope: string, key: string): void {
    if (this.open.get(scope)?.key === key) this.open.delete(scope);
  }

  /** Forget every open intent (sign-out). */
  clear(): void {
    this.open.clear();
  }
}

export const intentKeys = new IntentKeys();
