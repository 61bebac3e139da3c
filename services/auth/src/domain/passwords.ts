import { hash, verify, type Algorithm } from "@node-rs/argon2";
import { validationError } from "@vulnscan/kit/core";

export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase, short enough that hashing cannot be used to burn CPU. */
export const MAX_PASSWORD_LENGTH = 256;

/** OWASP's argon2id parameters: 19 MiB of memory, 2 passes, 1 lane. */
const ARGON2ID: Algorithm = 2 as Algorithm;
export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

export const argon2Hasher: PasswordHasher = {
  hash: (password) => hash(password, ARGON2_OPTIONS),
  verify: async (hashed, password) => {
    try {
      return await verify(hashed, password);
    } catch {
      return false; // a malformed stored hash verifies nothing
    }
  },
};

/** Length only, as NIST SP 800-63B advises: composition rules make passwords worse, not better. */
export function checkPasswordPolicy(password: string, field = "password"): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw validationError(field, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }
  if ([...password].length > MAX_PASSWORD_LENGTH) {
    throw validationError(field, `Password must be at most ${MAX_PASSWORD_LENGTH} characters long`);
  }
}

/**
 * Verifying against this when the email is unknown makes a miss cost the same argon2id run
 * as a wrong password, so response time does not reveal whether an account exists.
 * It is the hash of a random string nobody knows, computed once per process.
 */
let dummy: Promise<string> | undefined;
export function dummyHash(hasher: PasswordHasher): Promise<string> {
  dummy ??= hasher.hash(`dummy-${Math.random()}-${Date.now()}`);
  return dummy;
}
