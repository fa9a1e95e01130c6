import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2's `Algorithm.Argon2id`: a const enum, which isolated modules cannot import. */
const ARGON2ID = 2;

// OWASP's argon2id baseline (19 MiB, 2 passes): strong enough, and fast enough for a test suite.
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A valid hash of a random string, verified when the account is missing or has no password, so a
 *  failed sign-in takes the same time whether or not the e-mail exists. */
const dummyHash = hash(`no-such-account-${Math.random()}`, OPTIONS);

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
