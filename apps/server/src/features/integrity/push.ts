import {
  checkPushedHash,
  HASH_PUSH_MAX_ERRORS,
  MSG_HASHES,
  parseIntegrityRange,
  type THashPushError,
  type THashPushResponse,
} from '@tlprt/contract';
import type { AppContext } from '../../context.js';
import { integrityServiceOf } from './service.js';
import { segmentId, storePushedHashes } from './store.js';
import type { TeamHosts } from './team-hosts.js';

/**
 * Hashes a team's packager pushed (issue 36). Each item is checked on its own: the integrity query's own
 * URL and range rules, a host the team's keys may verify (so one team can never set the hashes of another
 * team's streams), and the port the integrity service would read it from. The valid ones are stored
 * for every node (the database) until now + INTEGRITY_PUSHED_TTL_S, replacing whatever those segments
 * had; the segment id drops the fragment, as the integrity service does.
 */
export async function pushHashes(
  ctx: AppContext,
  hosts: TeamHosts,
  teamId: number,
  items: readonly unknown[],
): Promise<THashPushResponse> {
  const { verifyHttpPort } = ctx.config;
  // Several items naming one segment: the last wins (one statement cannot upsert a row twice).
  const rows = new Map<string, string>();
  const errors: THashPushError[] = [];
  let accepted = 0;
  let rejected = 0;
  const reject = (index: number, url: string | null, message: string) => {
    rejected++;
    if (errors.length < HASH_PUSH_MAX_ERRORS) errors.push({ index, url, message });
  };
  for (const [index, item] of items.entries()) {
    const checked = checkPushedHash(item);
    if (!checked.ok) {
      reject(index, checked.url, checked.message);
      continue;
    }
    const { value } = checked;
    const url = new URL(value.url);
    if (!(await hosts.allows(teamId, url.hostname))) {
      reject(index, value.url, `url: ${MSG_HASHES.foreignHost}`);
      continue;
    }
    // The integrity service reads http from VERIFY_HTTP_PORT (80 but in tests) and https from 443 only:
    // a hash of a segment on any other port would never be asked for.
    if (url.port !== '' && Number(url.port) !== (url.protocol === 'https:' ? 443 : verifyHttpPort)) {
      reject(index, value.url, `url: ${MSG_HASHES.port}`);
      continue;
    }
    const range = value.range === undefined ? undefined : parseIntegrityRange(value.range);
    rows.set(segmentId(url, range), value.sha256);
    accepted++;
  }
  await storePushedHashes(
    ctx.db,
    teamId,
    [...rows].map(([segment, sha256]) => ({ segment, sha256 })),
    ctx.now() + ctx.config.integrity.pushedTtlMs,
  );
  // This node answers the pushed hash at once; other nodes within their memory's short life.
  integrityServiceOf(ctx)?.forget(teamId, [...rows.keys()]);
  if (accepted > 0) ctx.metrics.hashesPushed.inc({ result: 'accepted' }, accepted);
  if (rejected > 0) ctx.metrics.hashesPushed.inc({ result: 'rejected' }, rejected);
  return { accepted, rejected, errors };
}
