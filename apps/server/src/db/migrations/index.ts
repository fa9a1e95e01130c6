import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_teams_accounts.js';
import * as m0003 from './0003_domains_keys.js';
import * as m0004 from './0004_team_search.js';
import * as m0005 from './0005_statistics.js';
import * as m0006 from './0006_stats_team_totals.js';
import * as m0007 from './0007_login_failures.js';
import * as m0008 from './0008_supervisor_audit.js';
import * as m0009 from './0009_stats_viewers.js';
import * as m0010 from './0010_one_pending_invitation.js';
import * as m0011 from './0011_stats_peaks_blocks.js';
import * as m0012 from './0012_stats_rejected.js';
import * as m0013 from './0013_domain_plain_http.js';
import * as m0014 from './0014_team_tokens.js';
import * as m0015 from './0015_stats_experience.js';
import * as m0016 from './0016_stats_breakdowns.js';
import * as m0017 from './0017_stats_drawn_blocks.js';
import * as m0018 from './0018_segment_hashes.js';
import * as m0019 from './0019_stats_verify_bytes.js';
import * as m0020 from './0020_origin_verification.js';
import * as m0021 from './0021_stats_journal.js';
import * as m0022 from './0022_alerts.js';
import * as m0023 from './0023_user_time_zone.js';
import * as m0024 from './0024_stats_cross_bytes.js';
import * as m0025 from './0025_stats_clickhouse_blocks.js';

/** Every migration in order. Listed by hand (not read from the folder) so the same list works from
 *  src/ under the test runner and from dist/ when built. Names sort in the order they must run. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_teams_accounts': m0002,
  '0003_domains_keys': m0003,
  '0004_team_search': m0004,
  '0005_statistics': m0005,
  '0006_stats_team_totals': m0006,
  '0007_login_failures': m0007,
  '0008_supervisor_audit': m0008,
  '0009_stats_viewers': m0009,
  '0010_one_pending_invitation': m0010,
  '0011_stats_peaks_blocks': m0011,
  '0012_stats_rejected': m0012,
  '0013_domain_plain_http': m0013,
  '0014_team_tokens': m0014,
  '0015_stats_experience': m0015,
  '0016_stats_breakdowns': m0016,
  '0017_stats_drawn_blocks': m0017,
  '0018_segment_hashes': m0018,
  '0019_stats_verify_bytes': m0019,
  '0020_origin_verification': m0020,
  '0021_stats_journal': m0021,
  '0022_alerts': m0022,
  '0023_user_time_zone': m0023,
  '0024_stats_cross_bytes': m0024,
  '0025_stats_clickhouse_blocks': m0025,
};
