import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The largest multiple of 62 below 256: bytes at or above it are dropped so every character is
 *  equally likely (no modulo bias). */
const LIMIT = 248;

/** A key's hash: 40 characters [A-Za-z0-9] from the crypto RNG (about 238 bits). */
export function newKeyHash(length = 40): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < LIMIT) out += ALPHABET.charAt(b % ALPHABET.length);
      if (out.length === length) break;
    }
  }
  return out;
}
