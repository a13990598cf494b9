/**
 * The user's withdrawal wallets, one per payment system (Settings → payment systems;
 * docs/cabinet-rules.md#screens).
 */
import { z } from "zod";
import type { ValidationCode } from "./errors";
import { text } from "./validation";

/** Field code of an address that does not fit the payment system's format (`fields["wallets.<i>.address"]`). */
export const WALLET_ADDRESS_FORMAT: ValidationCode = "addressFormat";

export const Wallet = z.object({ paymentSystemId: z.string(), address: z.string() });
export type Wallet = z.infer<typeof Wallet>;
export const WalletsReply = z.array(Wallet);
export type WalletsReply = z.infer<typeof WalletsReply>;

/** `PATCH /user-data/wallets/update`: sets the given wallets; an empty address removes that wallet. */
export const WalletsUpdateBody = z.object({
  wallets: z
    .array(
      z.object({
        paymentSystemId: text().trim().min(1, { error: "required" }).max(64),
        address: text().trim().max(200),
      }),
    )
    .max(50),
});
export type WalletsUpdateBody = z.infer<typeof WalletsUpdateBody>;
