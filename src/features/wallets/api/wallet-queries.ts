/**
 * The user's withdrawal wallets (`GET /user-data/wallets`, `PATCH /user-data/wallets/update`),
 * one per payment system. Keys start with `wallets`. A new or changed address is stored only with
 * the code the first call sent (`walletCode` in its reply).
 */
import type { CodeSentReply, Wallet } from "@contract";
import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";

const walletKeys = { all: ["wallets"] } as const;

export const walletQueries = {
  list: () =>
    queryOptions({
      queryKey: [...walletKeys.all, "list"] as const,
      queryFn: ({ signal }) => callApi("wallets", { signal }),
    }),
};

export const walletMutations = {
  /** Sets one wallet (the others stay as they are); a new or changed address gets `walletCode` back instead. */
  save: () =>
    mutationOptions({
      mutationKey: [...walletKeys.all, "save"],
      mutationFn: (wallet: Wallet) => callApi("updateWallets", { body: { wallets: [wallet] } }),
      meta: { invalidates: [walletKeys.all] },
    }),
  /** Stores `wallet` with the code sent for it. */
  confirm: (wallet: Wallet) =>
    mutationOptions({
      mutationKey: [...walletKeys.all, "confirm"],
      mutationFn: (code: string) => callApi("updateWallets", { body: { wallets: [wallet], code } }),
      meta: { invalidates: [walletKeys.all] },
    }),
  /** A new code for `wallet` (the same call without a code, once the wait is over). */
  resend: (wallet: Wallet) =>
    mutationOptions({
      mutationKey: [...walletKeys.all, "resend"],
      mutationFn: async (): Promise<CodeSentReply> => {
        const reply = await callApi("updateWallets", { body: { wallets: [wallet] } });
        // Nothing left to confirm (stored meanwhile, in another tab): the step shows an error.
        if (!reply.walletCode) throw new Error("the wallet needs no code any more");
        return reply.walletCode;
      },
      meta: { invalidates: [walletKeys.all] },
    }),
};

/** The field code of a refused address, whatever index the server gave it (`wallets.0.address`). */
export function walletAddressError(fields: Record<string, string> | undefined): string | undefined {
  if (!fields) return undefined;
  const entry = Object.entries(fields).find(([key]) => /^wallets\.\d+\.address$/.test(key) || key === "address");
  return entry?.[1];
}
