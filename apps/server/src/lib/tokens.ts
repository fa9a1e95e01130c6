import { createHash, randomBytes } from 'node:crypto';

/** A fresh opaque secret (bearer token or e-mail link hash): 32 random bytes, url-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What the database stores instead of a secret: a leaked table then opens no session and no link. */
export function sha256(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
