import { LinkKind, type LinkKindValue, TIMINGS } from '@tlprt/contract';
import type { Db } from '../../db/index.js';
import type { EmailLinkRow } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken, sha256 } from '../../lib/tokens.js';
import { consumeLiveLink, expireLiveLinks, findLiveLink, insertLink } from './queries.js';

/**
 * Single-use e-mail links (DESIGN §4): the mailed hash is random, only its sha256 is stored, it expires
 * (24 h; invitations 7 days) and works once.
 */

export interface LinkDeps {
  db: Db;
  now: Clock;
}

export interface NewLink {
  kind: LinkKindValue;
  userId: number | null;
  email: string;
  payload?: Record<string, unknown>;
  /** Defaults to the kind's lifetime. */
  ttlMs?: number;
  /** A newer link of the same kind for the same user invalidates older ones (default). Invitations,
   *  one per team, opt out. */
  supersede?: boolean;
}

export function defaultTtl(kind: LinkKindValue): number {
  return kind === LinkKind.Invite ? TIMINGS.inviteTtlMs : TIMINGS.linkTtlMs;
}

/** Stores a new link and returns its raw hash, the only copy of which goes into the mail. */
export async function createLink({ db, now }: LinkDeps, link: NewLink): Promise<string> {
  const hash = randomToken(32);
  const t = now();
  if (link.userId !== null && link.supersede !== false) await expireLiveLinks(db, link.userId, link.kind, t);
  await insertLink(db, {
    kind: link.kind,
    userId: link.userId,
    email: link.email,
    tokenHash: sha256(hash),
    payload: JSON.stringify(link.payload ?? {}),
    expiresAt: t + (link.ttlMs ?? defaultTtl(link.kind)),
    createdAt: t,
  });
  return hash;
}

/** Uses a live link of one of `kinds`; undefined when unknown, expired, used or of another kind. */
export function consumeLink(
  { db, now }: LinkDeps,
  hash: string,
  kinds: readonly LinkKindValue[],
): Promise<EmailLinkRow | undefined> {
  return consumeLiveLink(db, sha256(hash), kinds, now());
}

/** Looks at a live link without using it (the web checks a hash before showing its form). */
export function peekLink(
  { db, now }: LinkDeps,
  hash: string,
  kinds: readonly LinkKindValue[],
): Promise<EmailLinkRow | undefined> {
  return findLiveLink(db, sha256(hash), kinds, now());
}
