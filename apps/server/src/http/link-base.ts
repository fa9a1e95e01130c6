import { MSG } from '@tlprt/contract';
import { HttpError } from './errors.js';

/**
 * Link bases sent by the client must be on PUBLIC_URL's origin (docs/DESIGN.md §4): the server never mails a
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

/**
 * A mailed link (docs/DESIGN.md §4): `<base>/<segment>/.../<hash>` built from the parsed, normalized base, never
 * from the raw client string (a mail client may read `http://us.example\@them.example/` as a link to
 * them.example), with exactly one `/` before each segment whether or not the base ends with one. The
 * base's query string (e.g. ?teamIdInvite=) stays after the path. Segments are placed as given: the
 * caller encodes any that are not URL-safe.
 */
export function linkWithHash(base: string, ...segments: string[]): string {
  const u = new URL(base);
  u.pathname = [u.pathname.replace(/\/+$/, ''), ...segments].join('/');
  return u.toString();
}
