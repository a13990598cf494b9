/**
 * What the API client reads from the contract at run time beside the route table (which `lib/checked-call.ts`
 * imports): the kept user's schema and the error reply's, loaded on first use: `callApi` checks every reply with
 * the contract (docs/architecture.md#how-a-reply-is-checked).
 *
 * Why lazily: written with zod/mini, the contract's code is 18.1 KB gzip (zod/mini's core 9.8 KB, the schemas 8.4
 * KB, measured on the production build); the login screen, at its budget, makes no checked call (the maintenance
 * flag and the public settings are read tolerantly) and never downloads it. A cabinet launch starts it at once
 * (`app/launch.ts`). Types come from `@contract` statically and cost nothing at run time.
 *
 * Why these two modules and not `import("@contract")`: a dynamic import of the contract's index hands over its
 * whole namespace, so the bundle kept an object naming every export of the contract and every export with it
 * (2.2 KB gzip of the cabinet's launch). Both modules are in the cabinet's launch chunk already (the route table
 * imports them): no file of their own.
 */
type Contract = Pick<typeof import("@contract"), "User" | "ApiErrorBody">;

let loading: Promise<Contract> | undefined;

export function loadContract(): Promise<Contract> {
  loading ??= Promise.all([import("@contract/user"), import("@contract/errors")]).then(
    ([user, errors]) => ({ User: user.User, ApiErrorBody: errors.ApiErrorBody }),
    (error: unknown) => {
      // A failed chunk load (offline) may succeed on the next call.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
