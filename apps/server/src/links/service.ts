import { LinkKind, type LinkKindValue, TIMINGS } from '@tlprt/contract';
import type { Db } from '../db/index.js';
import type { EmailLinkRow } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { randomToken, sha256 } from '../lib/tokens.js';
import {
  consumeLiveLink,
  expireLinkByHash,
  expireLiveLinks,
  expireTeamLinks,
  findLiveLink,
  insertLink,
} from './queries.js';

/**
 * Single-use e-mail links (docs/DESIGN.md §4): the mailed hash is random, only its sha256 is stored, it expires
 * (24 h; invitations 7 days) and works once.
 */

interface LinkDeps {
  db: Db;
  now: Clock;
}

interface NewLink {
  kind: LinkKindValue;
  userId: number | null;
  email: string;
  payload?: Record<string, unknown>;
  /** Team-scoped links: with `supersede`, a newer link kills the older ones of the same team and kind
   *  (not those of the user's other teams). */
  teamId?: number;
  /** Defaults to the kind's lifetime. */
  ttlMs?: number;
  /** A newer link of the same kind for the same user invalidates older ones (default). Invitations,
   *  one per team, opt out. */
  supersede?: boolean;
}

function defaultTtl(kind: LinkKindValue): number {
  return kind === LinkKind.Invite ? TIMINGS.inviteTtlMs : TIMINGS.linkTtlMs;
}

/** A link just stored: its raw hash (the only copy, for the mail) and when it expires. */
interface CreatedLink {
  hash: string;
  expiresAt: number;
}

/** Stores a new link. `db` may be a transaction: the link then lives or dies with the rows it belongs to. */
export async function createLink({ db, now }: LinkDeps, link: NewLink): Promise<CreatedLink> {
  const hash = randomToken(32);
  const t = now();
  const expiresAt = t + (link.ttlMs ?? defaultTtl(link.kind));
  if (link.supersede !== false) {
    if (link.teamId !== undefined) await expireTeamLinks(db, link.teamId, link.kind, t);
    else if (link.userId !== null) await expireLiveLinks(db, link.userId, link.kind, t);
  }
  await insertLink(db, {
    teamId: link.teamId ?? null,
    kind: link.kind,
    userId: link.userId,
    email: link.email,
    tokenHash: sha256(hash),
    payload: JSON.stringify(link.payload ?? {}),
    expiresAt,
    createdAt: t,
  });
  return { hash, expiresAt };
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

/** Kills the live links of one kind for a user (a revoked e-mail change or account deletion). */
export function killUserLinks({ db, now }: LinkDeps, userId: number, kind: LinkKindValue): Promise<void> {
  return expireLiveLinks(db, userId, kind, now());
}

/** Kills the live links of one kind for a team (a cancelled deletion or revoked suspension). */
export function killTeamLinks({ db, now }: LinkDeps, teamId: number, kind: LinkKindValue): Promise<void> {
  return expireTeamLinks(db, teamId, kind, now());
}

/** Kills one link by its stored hash (an invitation's). */
export function killLinkByHash({ db, now }: LinkDeps, tokenHash: string): Promise<void> {
  return expireLinkByHash(db, tokenHash, now());
}

/** What an invitation stores to find its link again. */
export const storedHash = sha256;
