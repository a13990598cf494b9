/**
 * The user's withdrawal wallets (`GET /user-data/wallets`, `PATCH /user-data/wallets/update`),
 * one per payment system. Keys start with `wallets`.
 */
import type { Wallet } from "@contract";
import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";

export const walletKeys = { all: ["wallets"] } as const;

export const walletQueries = {
  list: () =>
    queryOptions({
      queryKey: [...walletKeys.all, "list"] as const,
      queryFn: ({ signal }) => callApi("wallets", { signal }),
    }),
};

export const walletMutations = {
  /** Sets one wallet (the others stay as they are). */
  save: () =>
    mutationOptions({
      mutationKey: [...walletKeys.all, "save"],
      mutationFn: (wallet: Wallet) => callApi("updateWallets", { body: { wallets: [wallet] } }),
      meta: { invalidates: [walletKeys.all] },
    }),
};

/** The field code of a refused address, whatever index the server gave it (`wallets.0.address`). */
export function walletAddressError(fields: Record<string, string> | undefined): string | undefined {
  if (!fields) return undefined;
  const entry = Object.entries(fields).find(([key]) => /^wallets\.\d+\.address$/.test(key) || key === "address");
  return entry?.[1];
}
