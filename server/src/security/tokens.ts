/**
 * Opaque secrets handed to clients (session tokens, password-reset tokens): 32 random bytes
 * (256 bits) as base64url. The database keeps only their SHA-256, so reading it signs nobody in;
 * a fast hash is enough because the input is random, not a password.
 */
import { createHash, randomBytes } from "node:crypto";

const TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString("base64url");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
