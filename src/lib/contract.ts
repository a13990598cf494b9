/**
 * The contract at run time (route table, reply schemas, error catalogue), loaded on first use: `callApi` checks
 * every reply with it (docs/architecture.md#how-a-reply-is-checked).
 *
 * Why lazily: written with zod/mini, the contract's code is 19.2 KB gzip (zod/mini's core 9.5 KB, the schemas
 * 9.7 KB, measured on the production build); the login screen, at its budget, makes no checked call (the
 * maintenance flag and the public settings are read tolerantly) and never downloads it. A cabinet launch starts
 * it at once (`app/launch.ts`). Types come from `@contract` statically and cost nothing at run time.
 */
type Contract = typeof import("@contract");

let loading: Promise<Contract> | undefined;

export function loadContract(): Promise<Contract> {
  loading ??= import("@contract").catch((error: unknown) => {
    // A failed chunk load (offline) may succeed on the next call.
    loading = undefined;
    throw error;
  });
  return loading;
}
