/**
 * Roots of the query keys of every screen that shows money. Each feature's query factory starts its
 * keys with one of these, and money mutations name them in `meta.invalidates` (handled once by the
 * MutationCache in `query-client.ts`).
 */
export const moneyKeys = {
  balance: ["balance"],
  statistics: ["statistics"],
  operations: ["operations"],
  deposits: ["deposits"],
  refills: ["refills"],
  withdrawals: ["withdrawals"],
} as const;
