import { randomBytes } from 'node:crypto';

/** Hashes go into URLs, DNS names and HTML attributes, so only URL-safe characters are accepted. */
const HASH = /^[A-Za-z0-9_-]{16,128}$/;

export function isValidHash(hash: string): boolean {
  return typeof hash === 'string' && HASH.test(hash);
}

/**
 * A new domain's verificationHash: 128 random bits as lower-case hex. Lower case and 32 characters
 * keep it valid in every method, including the CNAME label (max 63) that DNS providers often lower-case.
 */
export function newVerificationHash(): string {
  return randomBytes(16).toString('hex');
}
