/**
 * The contract at run time (route table, reply schemas, error catalogue), loaded on first use.
 *
 * Why lazily: the contract is built with classic zod, which weighs ~26 KB gzip (measured), more than a
 * sixth of the first screen's whole budget. The first screen makes no checked call (the maintenance
 * flag is read tolerantly, see `features/settings/api/technical-work.ts`), so the login screen never
 * downloads it; the first checked call does, once. Types come from `@contract` statically and cost
 * nothing at run time.
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
