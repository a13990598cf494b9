/**
 * Opaque secrets handed to clients (session tokens, password-reset tokens): 32 random bytes
 * (256 bits) as base64url. The database keeps only their SHA-256, so reading it signs nobody in;
 * a fast hash is enough because the input is random, not a password.
 */
import { hash, randomBytes } from "node:crypto";

const TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString("base64url");
}

/** The SHA-256 of `token` in hex (Node's one-shot hash: a third of a `createHash` object's cost, per signed-in call). */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

/**
 * The same SHA-256 as 32 Latin-1 characters, a byte each: the key a kept session is found by on every signed-in call
 * (db/change-feed.ts), half the hex's length to hold and to compare. `digestHex` gives the database's `token_hash`.
 */
export function tokenDigest(token: string): string {
  return hash("sha256", token, "binary");
}

/** The hex of a `tokenDigest`: `hashToken` of the same token. */
export function digestHex(digest: string): string {
  return Buffer.from(digest, "latin1").toString("hex");
}
