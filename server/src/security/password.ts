/** Password hashing: argon2id with OWASP's minimum parameters (m=19 MiB, t=2, p=1). */
import { type Algorithm, hash, verify } from "@node-rs/argon2";

/** `Algorithm.Argon2id`; a const enum cannot be read under isolatedModules. */
const ARGON2ID = 2 as Algorithm;

const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/** False for a wrong password and for a malformed hash alike. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
