import { DomainStatus, INGEST_ERRORS, KeyStatus } from '@tlprt/contract';
import type { Db } from '../../db/index.js';
import { findKeysForIngest } from './queries.js';

/** What ingest needs of a key: its id, or why its reports are refused. */
type KeyVerdict = { ok: true; keyId: number } | { ok: false; message: string };

/**
 * key hash → verdict, cached for a short time (ingest must not hit the database per report). A key
 * suspended or deleted is refused at the latest `ttlMs` later.
 */
export class KeyCache {
  private cache = new Map<string, { verdict: KeyVerdict; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly nowMs: () => number,
    private readonly ttlMs = 5000,
  ) {}

  async resolve(hashes: Iterable<string>): Promise<Map<string, KeyVerdict>> {
    const now = this.nowMs();
    const out = new Map<string, KeyVerdict>();
    const missing: string[] = [];
    for (const h of hashes) {
      if (out.has(h)) continue;
      const c = this.cache.get(h);
      if (c && c.until > now) out.set(h, c.verdict);
      else if (!missing.includes(h)) missing.push(h);
    }
    if (missing.length > 0) {
      const found = new Map((await findKeysForIngest(this.db, missing)).map((r) => [r.key_hash, r]));
      for (const h of missing) {
        const r = found.get(h);
        let verdict: KeyVerdict;
        if (!r) verdict = { ok: false, message: INGEST_ERRORS.unknownKey };
        else if (r.status !== KeyStatus.Active || r.suspended === 1)
          verdict = { ok: false, message: INGEST_ERRORS.keyInactive };
        else if (r.team_suspended === 1) verdict = { ok: false, message: INGEST_ERRORS.teamSuspended };
        else if (
          r.domain_id !== null &&
          (r.domain_status !== DomainStatus.Active || r.domain_suspended === 1)
        )
          verdict = { ok: false, message: INGEST_ERRORS.domainInactive };
        else verdict = { ok: true, keyId: r.id };
        out.set(h, verdict);
        this.cache.set(h, { verdict, until: now + this.ttlMs });
      }
    }
    if (this.cache.size > 100_000) {
      for (const [h, c] of this.cache) if (c.until <= now) this.cache.delete(h);
    }
    return out;
  }

  clear(): void {
    this.cache.clear();
  }
}
