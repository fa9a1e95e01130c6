import { DomainStatus, INGEST_ERRORS, KeyStatus, TeamStatus } from '@tlprt/contract';
import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { chunks } from '../lib/chunks.js';
import type { Clock } from '../lib/clock.js';

/** What the public side (ingest, public settings, Origin rule, tracker, integrity) knows of a usable key. */
export interface UsableKey {
  id: number;
  hash: string;
  teamId: number;
  /** null: a key of every domain of its team. */
  domainId: number | null;
}

export type KeyVerdict = { ok: true; key: UsableKey } | { ok: false; message: string };

/** The key's row and the states of its team and domain, as one look-up reads them. */
export interface KeyStateRow {
  id: number;
  key_hash: string;
  status: number;
  suspended: number;
  team_id: number;
  team_suspended: number;
  team_status: number;
  domain_id: number | null;
  domain_status: number | null;
  domain_suspended: number | null;
  domain_draft: number | null;
  domain_verification: number | null;
}

/**
 * The one rule of docs/DESIGN.md §11 "is this key usable": the key active and not suspended; its team neither
 * suspended nor disabled; its domain, when it has one, verified, promoted out of the drafts, active and
 * not suspended. Every public entry point asks this, so a key refused by one is refused by all.
 */
export function keyVerdict(row: KeyStateRow | undefined): KeyVerdict {
  if (!row) return { ok: false, message: INGEST_ERRORS.unknownKey };
  if (row.status !== KeyStatus.Active || row.suspended !== 0)
    return { ok: false, message: INGEST_ERRORS.keyInactive };
  if (row.team_suspended !== 0 || row.team_status === TeamStatus.Suspended)
    return { ok: false, message: INGEST_ERRORS.teamSuspended };
  if (row.team_status === TeamStatus.Disabled) return { ok: false, message: INGEST_ERRORS.teamDisabled };
  if (
    row.domain_id !== null &&
    (row.domain_status !== DomainStatus.Active ||
      row.domain_suspended !== 0 ||
      row.domain_draft !== 1 ||
      row.domain_verification !== 1)
  )
    return { ok: false, message: INGEST_ERRORS.domainInactive };
  return {
    ok: true,
    key: { id: row.id, hash: row.key_hash, teamId: row.team_id, domainId: row.domain_id },
  };
}

/*
 * The same rule in SQL, for the statements that must filter rows by it (the Origin rule's look-up by
 * host, a team's usable domains): a where clause per table, over the aliases `k` (keys), `t` (teams)
 * and `d` (domains). keyVerdict above and these clauses are the two halves of one rule, kept side by
 * side; usable-keys.test.ts runs every state of its table through both (a key `k` of team `t` with its
 * own domain `d` left-joined: key and team usable, and no domain or a usable one).
 */
type KeyTables = Database & { k: Database['keys']; t: Database['teams']; d: Database['domains'] };
const eb = expressionBuilder<KeyTables, 'k' | 't' | 'd'>();

/** The key `k` is active and not suspended (its own half of the rule). */
export const USABLE_KEY_ROW: Expression<SqlBool> = eb.and([
  eb('k.status', '=', KeyStatus.Active),
  eb('k.suspended', '=', 0),
]);
/** The team `t` is neither suspended (flag or status) nor disabled. */
export const USABLE_TEAM: Expression<SqlBool> = eb.and([
  eb('t.suspended', '=', 0),
  eb('t.status_id', 'not in', [TeamStatus.Disabled, TeamStatus.Suspended]),
]);
/** The domain `d` is verified, promoted out of the drafts, active and not suspended. */
export const USABLE_DOMAIN: Expression<SqlBool> = eb.and([
  eb('d.status', '=', DomainStatus.Active),
  eb('d.verification', '=', 1),
  eb('d.draft', '=', 1),
  eb('d.suspended', '=', 0),
]);
export async function findKeyStates(db: Db, hashes: readonly string[]): Promise<KeyStateRow[]> {
  const parts: KeyStateRow[][] = [];
  for (const part of chunks(hashes, 500)) {
    parts.push(
      await db
        .selectFrom('keys as k')
        .innerJoin('teams as t', 't.id', 'k.team_id')
        .leftJoin('domains as d', (j) =>
          j.onRef('d.id', '=', 'k.domain_id').onRef('d.team_id', '=', 'k.team_id'),
        )
        .select([
          'k.id',
          'k.key_hash',
          'k.status',
          'k.suspended',
          'k.team_id',
          't.suspended as team_suspended',
          't.status_id as team_status',
          'k.domain_id',
          'd.status as domain_status',
          'd.suspended as domain_suspended',
          'd.draft as domain_draft',
          'd.verification as domain_verification',
        ])
        .where('k.key_hash', 'in', part)
        .execute(),
    );
  }
  return parts.flat();
}

/**
 * key hash → verdict, cached for a short time: the public side must not hit the database per report or
 * per segment. A key switched off is refused everywhere at the latest `ttlMs` later.
 */
export class UsableKeys {
  private cache = new Map<string, { verdict: KeyVerdict; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly nowMs: Clock,
    private readonly ttlMs = 5000,
    private readonly maxEntries = 100_000,
  ) {}

  async resolve(hashes: Iterable<string>): Promise<Map<string, KeyVerdict>> {
    const now = this.nowMs();
    const out = new Map<string, KeyVerdict>();
    const missing = new Set<string>();
    for (const h of hashes) {
      if (out.has(h)) continue;
      const c = this.cache.get(h);
      if (c && c.until > now) out.set(h, c.verdict);
      else missing.add(h);
    }
    if (missing.size > 0) {
      const found = new Map((await findKeyStates(this.db, [...missing])).map((r) => [r.key_hash, r]));
      if (this.cache.size + missing.size > this.maxEntries) this.sweep(now);
      for (const h of missing) {
        const verdict = keyVerdict(found.get(h));
        out.set(h, verdict);
        // Made-up hashes could fill memory: past the bound, nothing more is remembered until a sweep.
        if (this.cache.size < this.maxEntries) this.cache.set(h, { verdict, until: now + this.ttlMs });
      }
    }
    return out;
  }

  /** The key when it is usable, else null. */
  async find(hash: string): Promise<UsableKey | null> {
    const v = (await this.resolve([hash])).get(hash);
    return v?.ok ? v.key : null;
  }

  /** The key when it is usable, read now (and remembered): for a read made once per viewer, where a key
   *  just switched off must be refused at once. */
  async findNow(hash: string): Promise<UsableKey | null> {
    this.cache.delete(hash);
    return this.find(hash);
  }

  clear(): void {
    this.cache.clear();
  }

  private sweep(now: number): void {
    for (const [h, c] of this.cache) if (c.until <= now) this.cache.delete(h);
    if (this.cache.size > this.maxEntries / 2) this.cache.clear();
  }
}
