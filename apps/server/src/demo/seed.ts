import {
  DomainStatus,
  KeyStatus,
  LinkKind,
  Role,
  TEAM_CREATOR_ROLE,
  VerificationMethod,
} from '@tlprt/contract';
import { findMember, insertMember } from '../access/membership.js';
import type { AppContext } from '../context.js';
import { findUserByEmail, insertUserIfAbsent } from '../directory/users.js';
import { ruleFields } from '../features/alerts/presenter.js';
import { countRules, insertRule } from '../features/alerts/queries.js';
import { newKeyHash } from '../features/domains/keys/hash.js';
import { insertKey, listKeys, updateKey } from '../features/domains/keys/queries.js';
import { findDomainsByHost, insertDomain, updateDomain } from '../features/domains/queries.js';
import { newVerificationHash } from '../features/domains/verification/index.js';
import { findPendingForEmail, insertInvitation } from '../features/invitations/queries.js';
import { listOrigins } from '../features/origins/queries.js';
import { createOriginRow } from '../features/origins/service.js';
import { findTeamByNameOfUser, insertTeamWithMember } from '../features/teams/queries.js';
import { hashPassword } from '../lib/passwords.js';
import { createLink, storedHash } from '../links/service.js';

/** The accounts printed in the start-up banner. */
export const DEMO_ACCOUNTS = {
  demo: { email: 'demo@tlprt.local', password: 'demo-password' },
  supervisor: { email: 'supervisor@tlprt.local', password: 'supervisor-password' },
} as const;

/** The demo team's key of the demo player page: only real players report on it (no simulated viewers),
 *  so two tabs of the page show their own P2P bytes on the Live chart. */
export const DEMO_PLAYER_KEY = 'Demo player (real P2P)';

const PARTNER_OWNER = 'partner@tlprt.local';
const DEMO_KEY_MASTER = 'keymaster@tlprt.local';
const DEMO_VIEWER = 'viewer@tlprt.local';
const PARTNER_INVITING_TEAM = 'Partner Labs';

async function ensureUser(
  ctx: AppContext,
  u: { email: string; password: string; name: string; surname: string; supervisor?: boolean },
): Promise<number> {
  const existing = await findUserByEmail(ctx.db, u.email);
  if (existing) return existing.id;
  await insertUserIfAbsent(ctx.db, {
    email: u.email,
    passwordHash: await hashPassword(u.password),
    name: u.name,
    surname: u.surname,
    supervisor: u.supervisor ?? false,
    subscription: false,
    createdAt: ctx.now(),
  });
  const row = await findUserByEmail(ctx.db, u.email);
  if (!row) throw new Error(`demo user ${u.email} was not created`);
  return row.id;
}

async function ensureTeam(ctx: AppContext, ownerId: number, name: string): Promise<number> {
  const existing = await findTeamByNameOfUser(ctx.db, ownerId, name);
  return (
    existing?.id ??
    insertTeamWithMember(ctx.db, { name, createdAt: ctx.now() }, { userId: ownerId, role: TEAM_CREATOR_ROLE })
  );
}

/**
 * DEMO_SEED=true: a demo account that is Admin of one team (with a Key master and a Viewer) and Viewer
 * of a partner's team, with a pending invitation to another partner team; and a supervisor. Idempotent: running it on every start changes nothing once the data exists.
 */
export async function seedDemo(ctx: AppContext): Promise<void> {
  const demoId = await ensureUser(ctx, { ...DEMO_ACCOUNTS.demo, name: 'Demo', surname: 'User' });
  await ensureUser(ctx, { ...DEMO_ACCOUNTS.supervisor, name: 'Super', surname: 'Visor', supervisor: true });
  const partnerId = await ensureUser(ctx, {
    email: PARTNER_OWNER,
    password: `partner-${crypto.randomUUID()}`,
    name: 'Partner',
    surname: 'Owner',
  });

  const demoTeamId = await ensureTeam(ctx, demoId, 'Demo Video Co');
  for (const [email, name, role] of [
    [DEMO_KEY_MASTER, 'Kim', Role.KeyMaster],
    [DEMO_VIEWER, 'Val', Role.Viewer],
  ] as const) {
    const id = await ensureUser(ctx, {
      email,
      password: `member-${crypto.randomUUID()}`,
      name,
      surname: 'Member',
    });
    if (!(await findMember(ctx.db, demoTeamId, id))) {
      await insertMember(ctx.db, { teamId: demoTeamId, userId: id, role, createdAt: ctx.now() });
    }
  }
  await seedDemoIntegration(ctx, demoTeamId);

  const partnerTeamId = await ensureTeam(ctx, partnerId, 'Partner Streams');
  if (!(await findTeamByNameOfUser(ctx.db, demoId, 'Partner Streams'))) {
    await insertMember(ctx.db, {
      teamId: partnerTeamId,
      userId: demoId,
      role: Role.Viewer,
      createdAt: ctx.now(),
    });
  }

  // A pending invitation for the demo account (its Invitations block is not empty). Its link is never
  // mailed: accept or decline it from the dashboard.
  const invitingTeamId = await ensureTeam(ctx, partnerId, PARTNER_INVITING_TEAM);
  if (!(await findPendingForEmail(ctx.db, invitingTeamId, DEMO_ACCOUNTS.demo.email, ctx.now()))) {
    const { hash, expiresAt } = await createLink(ctx, {
      kind: LinkKind.Invite,
      userId: demoId,
      email: DEMO_ACCOUNTS.demo.email,
      teamId: invitingTeamId,
      supersede: false,
    });
    await insertInvitation(ctx.db, {
      teamId: invitingTeamId,
      email: DEMO_ACCOUNTS.demo.email,
      invitedUserId: demoId,
      role: Role.KeyMaster,
      invitingUserId: partnerId,
      tokenHash: storedHash(hash),
      createdAt: ctx.now(),
      expiresAt,
    });
  }
}

/** The demo team's domains: promoted and verified (bypass: they are not real sites), one inactive,
 *  one draft still to verify; each with named keys. One takes plain http:// pages, so My domains shows
 *  the option both ways (the demo page itself is on the dashboard's origin, which needs neither). */
const DEMO_DOMAINS: ReadonlyArray<{
  host: string;
  state: 'active' | 'inactive' | 'draft';
  plainHttp?: boolean;
  keys: Array<{ name: string; status?: number }>;
}> = [
  {
    host: 'demo-video.example',
    state: 'active',
    keys: [
      { name: 'Web player' },
      { name: 'Mobile app' },
      { name: 'Smart TV', status: KeyStatus.Inactive },
      { name: DEMO_PLAYER_KEY },
    ],
  },
  {
    host: 'live.demo-video.example',
    state: 'active',
    plainHttp: true,
    keys: [{ name: 'Live events' }, { name: 'Sports channel' }],
  },
  { host: 'archive.demo-video.example', state: 'inactive', keys: [{ name: 'Archive player' }] },
  { host: 'new.demo-video.example', state: 'draft', keys: [] },
];

/** Domains, keys and an origin of the demo team; each part is added only when missing. */
async function seedDemoIntegration(ctx: AppContext, teamId: number): Promise<void> {
  for (const d of DEMO_DOMAINS) {
    if ((await findDomainsByHost(ctx.db, teamId, d.host)).length > 0) continue;
    const id = await insertDomain(ctx.db, {
      teamId,
      host: d.host,
      name: d.host,
      hash: newVerificationHash(),
      createdAt: ctx.now(),
    });
    if (d.state !== 'draft') {
      await updateDomain(ctx.db, teamId, id, {
        verification: 1,
        verification_method: VerificationMethod.SupervisorBypass,
        draft: 1,
        status: d.state === 'active' ? DomainStatus.Active : DomainStatus.Inactive,
        plain_http: d.plainHttp ? 1 : 0,
      });
    }
    for (const k of d.keys) {
      const keyId = await insertKey(ctx.db, {
        teamId,
        domainId: id,
        keyHash: newKeyHash(),
        name: k.name,
        createdAt: ctx.now(),
      });
      if (k.status !== undefined) await updateKey(ctx.db, teamId, keyId, { status: k.status });
    }
  }
  if (!(await listKeys(ctx.db, teamId)).some((k) => k.domain_id === null)) {
    await insertKey(ctx.db, {
      teamId,
      domainId: null,
      keyHash: newKeyHash(),
      name: 'All domains',
      createdAt: ctx.now(),
    });
  }
  if ((await listOrigins(ctx.db, teamId)).length === 0) {
    // The demo team's CDN host, as a customer types it on the Origins screen.
    await createOriginRow(ctx, teamId, 'cdn.demo-video.example');
  }
  await seedDemoAlerts(ctx, teamId);
}

/** Two alerts on the simulated traffic, so the Alerts screen shows rules being evaluated: e-mail only
 *  (a demo has no receiver of webhooks; the guide's section shows how to add one). */
async function seedDemoAlerts(ctx: AppContext, teamId: number): Promise<void> {
  if ((await countRules(ctx.db, teamId)) > 0) return;
  const rules = [
    {
      name: 'P2P share dropped',
      metric: 'p2pShare',
      op: 'below',
      threshold: 40,
      windowMinutes: 10,
      minViewers: 20,
    },
    {
      name: 'Peers sent altered segments',
      metric: 'rejectedBytes',
      op: 'above',
      threshold: 0,
      windowMinutes: 5,
      minViewers: 1,
    },
  ] as const;
  for (const r of rules)
    await insertRule(
      ctx.db,
      teamId,
      ruleFields({ ...r, keys: [], emailRoles: [Role.Admin], webhookUrl: null }, null),
      null,
      ctx.now(),
    );
}

/** The hash of the demo player page's key (printed at start with the page's address). */
export async function demoPlayerKeyHash(ctx: AppContext): Promise<string | undefined> {
  const row = await ctx.db
    .selectFrom('keys')
    .select('key_hash')
    .where('name', '=', DEMO_PLAYER_KEY)
    .where('status', '=', KeyStatus.Active)
    .orderBy('id')
    .executeTakeFirst();
  return row?.key_hash;
}
