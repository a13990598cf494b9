/**
 * The user's withdrawal wallets, one per payment system (Settings → payment systems;
 * docs/cabinet-rules.md#screens). A new or changed address is stored only with a code sent to the
 * user's code channel: a stolen session alone cannot redirect the next withdrawal.
 */
import * as z from "zod/mini";
import { CodeSentReply } from "./auth";
import { deferred } from "./deferred";
import type { ValidationCode } from "./errors";
import { CodeField, text } from "./validation";

/** Field code of an address that does not fit the payment system's format (`fields["wallets.<i>.address"]`). */
export const WALLET_ADDRESS_FORMAT: ValidationCode = "addressFormat";

export const Wallet = deferred(() => z.object({ paymentSystemId: z.string(), address: z.string() }));
export type Wallet = z.infer<typeof Wallet>;
export const WalletsReply = deferred(() => z.array(Wallet));
export type WalletsReply = z.infer<typeof WalletsReply>;

/**
 * `PATCH /user-data/wallets/update`: sets the given wallets; an empty address removes that wallet.
 * When an entry adds or changes an address, the first call stores nothing and sends a code; the same
 * wallets sent again with that `code` are stored. Removals and unchanged addresses need no code.
 */
export const WalletsUpdateBody = deferred(() =>
  z.object({
    wallets: z
      .array(
        z.object({
          paymentSystemId: text().check(z.trim(), z.minLength(1, { error: "required" }), z.maxLength(64)),
          address: text().check(z.trim(), z.maxLength(200)),
        }),
      )
      .check(z.maxLength(50)),
    /** The code sent for exactly these wallets. */
    code: z.optional(CodeField),
  }),
);
export type WalletsUpdateBody = z.infer<typeof WalletsUpdateBody>;

/**
 * The reply of `PATCH /user-data/wallets/update`: the wallets as stored now, and `walletCode` when
 * the change waits for its code (nothing was stored; the code went to the user's channel).
 */
export const WalletsUpdateReply = deferred(() =>
  z.object({ wallets: WalletsReply, walletCode: z.nullable(CodeSentReply) }),
);
export type WalletsUpdateReply = z.infer<typeof WalletsUpdateReply>;
