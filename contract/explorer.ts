/**
 * Block explorer links, in a file of their own: the operation details sheet builds them, and its code must not bring
 * the contract's schemas with it (`contract/home.ts` re-exports these beside the payment systems' schema).
 */

/** The `{tx}` placeholder of a payment system's block explorer template. */
export const EXPLORER_TX_PLACEHOLDER = "{tx}";

/**
 * The block explorer page of a transaction: the payment system's `explorerUrl` template with `{tx}` replaced
 * by the hash (URL-encoded); null without a template or a hash.
 */
export function explorerLink(template: string | null | undefined, txHash: string | null | undefined): string | null {
  if (!template || !txHash) return null;
  return template.split(EXPLORER_TX_PLACEHOLDER).join(encodeURIComponent(txHash));
}
