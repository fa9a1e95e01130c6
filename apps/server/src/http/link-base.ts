import { MSG } from '@tlprt/contract';
import { HttpError } from './errors.js';

/**
 * Link bases sent by the client must be on PUBLIC_URL's origin (DESIGN §4): the server never mails a
 * live hash to another site. Throws 400 naming every foreign field.
 */
export function assertOwnLinkBases(publicUrl: string, bases: Record<string, string>): void {
  const origin = new URL(publicUrl).origin;
  const errors: Record<string, string> = {};
  for (const [field, base] of Object.entries(bases)) {
    if (new URL(base).origin !== origin) errors[field] = MSG.foreignLinkBase;
  }
  if (Object.keys(errors).length) throw new HttpError(400, MSG.foreignLinkBase, errors);
}

/** `<base>/<hash>`, keeping the base's query string (e.g. ?teamIdInvite=) after the hash. */
export function linkWithHash(base: string, hash: string): string {
  const u = new URL(base);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/${hash}`;
  return u.toString();
}
