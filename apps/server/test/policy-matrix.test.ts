import {
  ENDPOINTS,
  endpointPath,
  LinkKind,
  linkBases,
  PATHS,
  Role,
  type RoleId,
  SUPERVISOR_SET,
  TeamStatus,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BuiltUser,
  buildAlert,
  buildDomain,
  buildKey,
  buildTeam,
  buildUser,
  memoryMailer,
  mintLink,
  setTeamState,
  uniqueEmail,
} from './factories.js';
import { Api, type Res } from './helpers/http.js';
import { closedPort } from './helpers/http-site.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';

/**
 * Who may call what: every team, invitation and self-service call against every kind of
 * caller. A cell is "ok" when the call is allowed (2xx, or a business 4xx that is not 401/403/404),
 * "403" when a role or state forbids it, "404" when the caller has no role in the team.
 *
 * Columns (each cell gets a fresh team whose owner is an Admin and which has a Viewer "target"):
 *   A    the caller is the team's second Admin (10)
 *   B    Billing master (20)
 *   K    Key master (30)
 *   V    Viewer (40)
 *   S    a supervisor (flag) who is not a member
 *   N    a signed-in user who is not a member
 *   Susp the caller is an Admin of a suspended team
 *   Del  the caller is an Admin of a team whose deletion is requested (statusId 30)
 *   U30  an Admin whose user status is 30
 *   U40  an Admin whose user status is 40
 */
const COLUMNS = ['A', 'B', 'K', 'V', 'S', 'N', 'Susp', 'Del', 'U30', 'U40'] as const;
type Column = (typeof COLUMNS)[number];

const PASSWORD = 'matrix-password';
const links = linkBases(PUBLIC_URL);
const teamPaths = { confirmPath: links.deleteTeamConfirm, cancelPath: links.deleteTeamCancel };
const invitePaths = {
  accept_new_user_url: links.inviteNew,
  accept_url: links.inviteOld,
  decline_url: links.inviteDecline,
};

interface Cell {
  server: TestServer;
  api: Api;
  me: BuiltUser;
  owner: BuiltUser;
  target: BuiltUser;
  team: { id: number; name: string };
  /** What `prepare` made (an invitation id, a link hash, a domain, key or origin id). */
  extra: {
    inviteId?: number;
    hash?: string;
    domainId?: number;
    keyId?: number;
    originId?: number;
    tokenId?: number;
    alertId?: number;
  };
}

interface Row {
  call: string;
  /** Runs as the owner before the column's state is applied. */
  prepare?: (c: Cell) => Promise<void>;
  run: (c: Cell) => Promise<Res>;
  //      A    B    K    V    S    N    Susp Del  U30  U40
  expect: string;
}

const ADMIN_ONLY = 'ok   403  403  403  ok   404  403  403  ok   ok';
/** The member list and deletion: admins of the team; a supervisor who is not a member sees it read-only. */
const MEMBER_ADMINS = 'ok   403  403  403  403  404  403  403  ok   ok';
const SUPERVISOR_ONLY = '403  403  403  403  ok   404  403  403  403  403';
const EVERY_MEMBER = 'ok   ok   ok   ok   ok   404  ok   ok   ok   ok';
const EVERYONE = 'ok   ok   ok   ok   ok   ok   ok   ok   ok   ok';
const NOT_BLOCKED_USERS = 'ok   ok   ok   ok   ok   ok   ok   ok   403  403';
const DELETION_MANAGERS = 'ok   403  403  403  ok   404  ok   ok   ok   ok';

const markDeleting = async (c: Cell) =>
  setTeamState(c.server.app, c.team.id, { status_id: TeamStatus.DeletionRequested });
const markSuspending = async (c: Cell) => setTeamState(c.server.app, c.team.id, { suspended_process: 1 });
const ownerInvites = async (c: Cell) => {
  const r = await c.api.as(c.owner.token).post(PATHS.invitations.create(c.team.id), {
    invited_email: uniqueEmail('guest'),
    role: Role.Viewer,
    ...invitePaths,
  });
  expect(r.status).toBe(201);
  const list = await c.api.as(c.owner.token).post(PATHS.invitations.search(c.team.id));
  c.extra.inviteId = list.body.data[0].id;
};

const ROWS: Row[] = [
  // ----- teams -----
  { call: 'GET team', run: (c) => c.api.get(PATHS.teams.read(c.team.id)), expect: EVERY_MEMBER },
  {
    call: 'PUT team',
    run: (c) => c.api.put(PATHS.teams.read(c.team.id), { website: 'example.com' }),
    expect: ADMIN_ONLY,
  },
  {
    call: 'set_time_zone',
    run: (c) => c.api.post(PATHS.teams.setTimeZone(c.team.id, 37)),
    expect: ADMIN_ONLY,
  },
  {
    call: 'set_version',
    run: (c) => c.api.put(PATHS.teams.setVersion(c.team.id), { version: 1 }),
    expect: SUPERVISOR_ONLY,
  },
  {
    call: 'remove member',
    run: (c) => c.api.send('DELETE', PATHS.teams.removeMember(c.team.id, c.target.id)),
    expect: MEMBER_ADMINS,
  },
  {
    call: 'set_role',
    run: (c) => c.api.post(PATHS.teams.setRole(c.team.id, c.target.id, Role.KeyMaster)),
    expect: MEMBER_ADMINS,
  },
  {
    call: 'leave',
    run: (c) => c.api.post(PATHS.teams.leave(c.team.id), { password: PASSWORD }),
    //       A    B    K    V    S    N    Susp Del  U30  U40
    expect: 'ok   ok   403  403  403  404  403  ok   ok   ok',
  },
  { call: 'favourite', run: (c) => c.api.put(PATHS.teams.toggleFavourite(c.team.id)), expect: EVERY_MEMBER },
  {
    call: 'tag/add',
    run: (c) => c.api.put(PATHS.teams.addTag(c.team.id), { tag: 'vip' }),
    expect: SUPERVISOR_ONLY,
  },
  {
    call: 'tag/remove',
    prepare: async (c) => {
      await c.server.app.ctx.db
        .insertInto('team_tags')
        .values({ team_id: c.team.id, tag: 'vip', created_at: 0 })
        .execute();
    },
    run: (c) => c.api.put(PATHS.teams.removeTag(c.team.id), { tag: 'vip' }),
    expect: SUPERVISOR_ONLY,
  },
  { call: 'team search', run: (c) => c.api.post(PATHS.teams.search, {}), expect: EVERYONE },
  // ----- deletion and suspension -----
  {
    call: 'delete/lock',
    run: (c) => c.api.post(PATHS.teamLifecycle.deleteLock(c.team.id), { ...teamPaths, password: PASSWORD }),
    // Spec §6: deleting is the Admins'; a supervisor who is not a member has no delete option.
    expect: MEMBER_ADMINS,
  },
  {
    call: 'delete/resend',
    prepare: markDeleting,
    run: (c) => c.api.post(PATHS.teamLifecycle.deleteResend(c.team.id), teamPaths),
    expect: DELETION_MANAGERS,
  },
  {
    call: 'delete/cancel',
    prepare: markDeleting,
    run: (c) => c.api.post(PATHS.teamLifecycle.deleteCancel(c.team.id), {}),
    expect: DELETION_MANAGERS,
  },
  {
    call: 'delete/confirm',
    prepare: async (c) => {
      await markDeleting(c);
      c.extra.hash = await mintLink(c.server.app, {
        kind: LinkKind.DeleteTeam,
        userId: c.owner.id,
        email: c.owner.email,
        teamId: c.team.id,
      });
    },
    run: (c) => c.api.send('DELETE', PATHS.teamLifecycle.deleteConfirm, { hash: c.extra.hash }),
    expect: DELETION_MANAGERS,
  },
  {
    call: 'suspend',
    run: (c) => c.api.post(PATHS.teamLifecycle.suspend(c.team.id), { name: c.team.name, ...teamPaths }),
    expect: SUPERVISOR_ONLY,
  },
  {
    call: 'suspended/resend',
    prepare: markSuspending,
    run: (c) => c.api.post(PATHS.teamLifecycle.suspendResend(c.team.id), teamPaths),
    expect: SUPERVISOR_ONLY,
  },
  {
    call: 'suspended/revoke',
    prepare: markSuspending,
    run: (c) => c.api.post(PATHS.teamLifecycle.suspendRevoke(c.team.id), {}),
    expect: SUPERVISOR_ONLY,
  },
  {
    call: 'suspended/confirm',
    prepare: async (c) => {
      await markSuspending(c);
      c.extra.hash = await mintLink(c.server.app, {
        kind: LinkKind.SuspendTeam,
        userId: c.owner.id,
        email: c.owner.email,
        teamId: c.team.id,
      });
    },
    run: (c) => c.api.put(PATHS.teamLifecycle.suspendConfirm, { hash: c.extra.hash }),
    expect: SUPERVISOR_ONLY,
  },
  // ----- invitations -----
  {
    call: 'invitation/create',
    run: (c) =>
      c.api.post(PATHS.invitations.create(c.team.id), {
        invited_email: uniqueEmail('inv'),
        role: Role.Viewer,
        ...invitePaths,
      }),
    //       A    B    K    V    S    N    Susp Del  U30  U40
    expect: 'ok   403  ok   403  403  404  403  403  ok   ok',
  },
  {
    call: 'invitation/search (team)',
    run: (c) => c.api.post(PATHS.invitations.search(c.team.id)),
    expect: 'ok   403  ok   403  ok   404  ok   ok   ok   ok',
  },
  {
    call: 'invitation revoke (by id)',
    prepare: ownerInvites,
    run: (c) => c.api.send('DELETE', PATHS.invitations.accept(c.team.id, c.extra.inviteId ?? 0)),
    // A Key master may revoke only the invitations they sent (this one is the owner's).
    expect: 'ok   403  403  403  ok   404  403  403  ok   ok',
  },
  {
    call: 'invitation resend',
    prepare: ownerInvites,
    run: (c) => c.api.post(PATHS.invitations.resend(c.team.id, c.extra.inviteId ?? 0), invitePaths),
    expect: 'ok   403  403  403  ok   404  403  403  ok   ok',
  },
  { call: 'invitation/search (mine)', run: (c) => c.api.post(PATHS.invitations.mine), expect: EVERYONE },
  // ----- users and self-service -----
  {
    call: 'user search',
    run: (c) => c.api.post(PATHS.users.search, {}),
    expect: '403  403  403  403  ok   403  403  403  403  403',
  },
  {
    call: 'change_password',
    run: (c) =>
      c.api.post(PATHS.account.changePassword(c.me.id), {
        password: PASSWORD,
        new_password: 'new-password',
        confirm: 'new-password',
      }),
    expect: NOT_BLOCKED_USERS,
  },
  {
    call: 'change_email',
    run: (c) =>
      c.api.post(PATHS.account.changeEmail(c.me.id), {
        password: PASSWORD,
        email: uniqueEmail('new'),
        url: links.changeEmail,
      }),
    expect: NOT_BLOCKED_USERS,
  },
  {
    call: 'change_email/resend',
    prepare: async (c) => {
      await c.server.app.ctx.db
        .updateTable('users')
        .set({ status_change_email: 10, new_change_email: uniqueEmail('pending') })
        .where('id', '=', c.me.id)
        .execute();
    },
    run: (c) => c.api.post(PATHS.account.changeEmailResend, { url: links.changeEmail }),
    expect: NOT_BLOCKED_USERS,
  },
  {
    call: 'change_email/accept',
    prepare: async (c) => {
      c.extra.hash = await mintLink(c.server.app, {
        kind: LinkKind.ChangeEmail,
        userId: c.me.id,
        email: uniqueEmail('accepted'),
      });
    },
    run: (c) => c.api.post(PATHS.account.changeEmailAccept, { hash: c.extra.hash }),
    expect: NOT_BLOCKED_USERS,
  },
  {
    call: 'change_email/revoke',
    prepare: async (c) => {
      await c.server.app.ctx.db
        .updateTable('users')
        .set({ status_change_email: 10, new_change_email: uniqueEmail('pending') })
        .where('id', '=', c.me.id)
        .execute();
    },
    run: (c) => c.api.post(PATHS.account.changeEmailRevoke, {}),
    expect: EVERYONE,
  },
  {
    call: 'account deletion resend',
    prepare: async (c) => {
      await c.server.app.ctx.db
        .updateTable('users')
        .set({ delete_progress: 1 })
        .where('id', '=', c.me.id)
        .execute();
    },
    run: (c) => c.api.post(PATHS.account.deleteResend(c.me.id), { url: links.deleteUser }),
    expect: EVERYONE,
  },
  {
    call: 'account deletion revoke',
    prepare: async (c) => {
      await c.server.app.ctx.db
        .updateTable('users')
        .set({ delete_progress: 1 })
        .where('id', '=', c.me.id)
        .execute();
    },
    run: (c) => c.api.post(PATHS.account.deleteRevoke(c.me.id), {}),
    expect: EVERYONE,
  },
  { call: 'info_delete', run: (c) => c.api.post(PATHS.account.deletionInfo(c.me.id)), expect: EVERYONE },
  {
    call: 'account deletion request',
    run: (c) =>
      c.api.send('DELETE', PATHS.account.remove(c.me.id), { password: PASSWORD, url: links.deleteUser }),
    expect: EVERYONE,
  },
  {
    call: 'account deletion accept',
    prepare: async (c) => {
      c.extra.hash = await mintLink(c.server.app, {
        kind: LinkKind.DeleteUser,
        userId: c.me.id,
        email: c.me.email,
      });
    },
    run: (c) => c.api.send('DELETE', PATHS.account.deleteAccept, { hash: c.extra.hash }),
    expect: EVERYONE,
  },
];

// ----- domains, keys, player settings, origins -----
let edges = 0;
/** domains.manage / keys.manage: every role but Viewer (spec §6), Supervisor; not in a suspended team. */
const KEY_MANAGERS = 'ok   ok   ok   403  ok   404  403  ok   ok   ok';

const draftDomain = async (c: Cell) => {
  c.extra.domainId = (await buildDomain(c.server.app, c.team.id)).id;
};
const verifiedDraft = async (c: Cell) => {
  c.extra.domainId = (await buildDomain(c.server.app, c.team.id, { verified: true })).id;
};
const promotedDomain = async (c: Cell) => {
  c.extra.domainId = (await buildDomain(c.server.app, c.team.id, { promoted: true })).id;
};
const domainKey = async (c: Cell) => {
  await promotedDomain(c);
  c.extra.keyId = (await buildKey(c.server.app, c.team.id, c.extra.domainId ?? 0, { name: 'k' })).id;
};
const anOrigin = async (c: Cell) => {
  const r = await c.api.as(c.owner.token).post(PATHS.origins.list(c.team.id), { name: 'cdn.policy.example' });
  expect(r.status).toBe(201);
  c.extra.originId = r.body.data.id;
};
const d = (c: Cell) => c.extra.domainId ?? 0;
const k = (c: Cell) => c.extra.keyId ?? 0;
const settingsBody = (c: Cell) => ({
  domainId: d(c),
  keyId: k(c),
  settings: [{ id: 12, value: 7, settingOverwrite: 1 }],
});

ROWS.push(
  { call: 'domains list', run: (c) => c.api.post(PATHS.domains.list(c.team.id)), expect: EVERY_MEMBER },
  {
    call: 'domains create',
    run: (c) => c.api.post(PATHS.domains.create(c.team.id), { url: `m${c.me.id}.matrix.example.com` }),
    expect: KEY_MANAGERS,
  },
  {
    call: 'domains instructions',
    prepare: draftDomain,
    run: (c) => c.api.get(PATHS.domains.instructions(c.team.id, d(c))),
    expect: KEY_MANAGERS,
  },
  {
    call: 'domains verify (method 2; already verified: no look-up)',
    prepare: verifiedDraft,
    run: (c) => c.api.put(PATHS.domains.verify(c.team.id, d(c)), { verificationMethod: 2, inx: 0 }),
    expect: KEY_MANAGERS,
  },
  {
    call: 'domains verify (5: supervisor bypass)',
    prepare: draftDomain,
    run: (c) => c.api.put(PATHS.domains.verify(c.team.id, d(c)), { verificationMethod: 5 }),
    expect: SUPERVISOR_ONLY,
  },
  {
    call: 'domains update_draft (promote)',
    prepare: verifiedDraft,
    run: (c) => c.api.get(PATHS.domains.promote(c.team.id, d(c))),
    expect: KEY_MANAGERS,
  },
  {
    call: 'domains update_active (toggle)',
    prepare: promotedDomain,
    run: (c) => c.api.get(PATHS.domains.toggleActive(c.team.id, d(c))),
    expect: KEY_MANAGERS,
  },
  {
    call: 'domains delete',
    prepare: promotedDomain,
    run: (c) => c.api.send('DELETE', PATHS.domains.remove(c.team.id, d(c))),
    expect: KEY_MANAGERS,
  },
  {
    call: 'domains suspended',
    prepare: promotedDomain,
    run: (c) => c.api.post(PATHS.domains.suspend(c.team.id, d(c))),
    expect: SUPERVISOR_ONLY,
  },
  {
    call: 'domains plain_http',
    prepare: promotedDomain,
    run: (c) => c.api.put(PATHS.domains.setPlainHttp(c.team.id, d(c)), { plainHttp: true }),
    expect: KEY_MANAGERS,
  },
  {
    call: 'keys create (domain)',
    prepare: promotedDomain,
    run: (c) => c.api.post(PATHS.keys.create(c.team.id, d(c)), { name: 'new' }),
    expect: KEY_MANAGERS,
  },
  {
    call: 'keys create (every domain: 0)',
    run: (c) => c.api.post(PATHS.keys.create(c.team.id, 0)),
    expect: KEY_MANAGERS,
  },
  {
    call: 'keys list',
    prepare: domainKey,
    run: (c) => c.api.post(PATHS.keys.list(c.team.id)),
    expect: EVERY_MEMBER,
  },
  {
    call: 'key read',
    prepare: domainKey,
    run: (c) => c.api.get(PATHS.keys.read(c.team.id, k(c))),
    expect: EVERY_MEMBER,
  },
  {
    call: 'key rename',
    prepare: domainKey,
    run: (c) => c.api.put(PATHS.keys.read(c.team.id, k(c)), { name: 'renamed' }),
    expect: KEY_MANAGERS,
  },
  {
    call: 'key active_key (toggle)',
    prepare: domainKey,
    run: (c) => c.api.get(PATHS.keys.toggleActive(c.team.id, k(c))),
    expect: KEY_MANAGERS,
  },
  {
    call: 'key delete',
    prepare: domainKey,
    run: (c) => c.api.send('DELETE', PATHS.keys.read(c.team.id, k(c))),
    expect: KEY_MANAGERS,
  },
  {
    call: 'key suspended',
    prepare: domainKey,
    run: (c) => c.api.post(PATHS.keys.suspend(c.team.id, k(c))),
    expect: SUPERVISOR_ONLY,
  },
  {
    call: 'key settings get',
    prepare: domainKey,
    run: (c) => c.api.get(PATHS.keySettings.read(c.team.id, d(c), k(c))),
    expect: EVERY_MEMBER,
  },
  {
    call: 'key settings set',
    prepare: domainKey,
    run: (c) =>
      c.api.post(PATHS.keySettings.write(c.team.id, d(c), k(c)), { settings: [{ id: 12, value: 9 }] }),
    expect: KEY_MANAGERS,
  },
  {
    call: 'key settings get_supervisor',
    prepare: domainKey,
    run: (c) =>
      c.api.get(
        endpointPath(
          ENDPOINTS.keySettings.readSupervisor,
          { teamId: c.team.id, keyId: k(c) },
          { domainId: d(c) },
        ),
      ),
    expect: SUPERVISOR_ONLY,
  },
  ...(['key', 'team', 'domain'] as const).map(
    (layer): Row => ({
      call: `key settings set_supervisor_by_${layer}`,
      prepare: domainKey,
      run: (c) => c.api.post(PATHS.keySettings[SUPERVISOR_SET[layer]](c.team.id), settingsBody(c)),
      expect: SUPERVISOR_ONLY,
    }),
  ),
  {
    call: 'origins list',
    prepare: anOrigin,
    run: (c) => c.api.get(PATHS.origins.list(c.team.id)),
    expect: EVERY_MEMBER,
  },
  {
    call: 'origins create',
    // A host of its own per call: a team refuses the same origin twice (409).
    run: (c) => c.api.post(PATHS.origins.list(c.team.id), { name: `edge-${++edges}.policy.example` }),
    expect: KEY_MANAGERS,
  },
  {
    call: 'origins toggle',
    prepare: anOrigin,
    run: (c) => c.api.get(PATHS.origins.toggle(c.team.id, c.extra.originId ?? 0)),
    expect: KEY_MANAGERS,
  },
  {
    call: 'origins verify',
    prepare: anOrigin,
    run: (c) => c.api.post(PATHS.origins.verify(c.team.id, c.extra.originId ?? 0), {}),
    expect: KEY_MANAGERS,
  },
  {
    call: 'origins delete',
    prepare: anOrigin,
    run: (c) => c.api.send('DELETE', PATHS.origins.remove(c.team.id, c.extra.originId ?? 0)),
    expect: KEY_MANAGERS,
  },
);

// ----- issues 25, 22: a team's API tokens (Admins, Billing masters and supervisors; revoking stays open
// during deletion) -----
const anApiToken = async (c: Cell) => {
  const r = await c.api.as(c.owner.token).post(PATHS.teamTokens.create(c.team.id), { name: 'reporter' });
  expect(r.status).toBe(201);
  c.extra.tokenId = r.body.data.id;
};
ROWS.push(
  {
    call: 'API tokens list',
    prepare: anApiToken,
    run: (c) => c.api.get(PATHS.teamTokens.list(c.team.id)),
    //       A    B    K    V    S    N    Susp Del  U30  U40
    expect: 'ok   ok   403  403  ok   404  ok   ok   ok   ok',
  },
  {
    call: 'API tokens create',
    run: (c) => c.api.post(PATHS.teamTokens.create(c.team.id), { name: 'reporter' }),
    //       A    B    K    V    S    N    Susp Del  U30  U40
    expect: 'ok   ok   403  403  ok   404  403  403  ok   ok',
  },
  {
    call: 'API tokens revoke',
    prepare: anApiToken,
    run: (c) => c.api.send('DELETE', PATHS.teamTokens.revoke(c.team.id, c.extra.tokenId ?? 0)),
    //       A    B    K    V    S    N    Susp Del  U30  U40
    expect: 'ok   ok   403  403  ok   404  403  ok   ok   ok',
  },
);

// ----- issue 38: alert rules (Admins, Key masters and supervisors manage; every member reads; deleting
// stays open while suspended) -----
/** alerts.manage: Admin, Key master, Supervisor; not while suspended or being deleted. */
const ALERT_MANAGERS = 'ok   403  ok   403  ok   404  403  403  ok   ok';
const anAlert = async (c: Cell) => {
  c.extra.alertId = (
    await buildAlert(c.server.app, c.team.id, { webhookUrl: 'https://hooks.example.com/in' })
  ).id;
};
const alertBody = { name: 'Low share', metric: 'p2pShare', op: 'below', threshold: 40, windowMinutes: 5 };
const al = (c: Cell) => c.extra.alertId ?? 0;
ROWS.push(
  {
    call: 'alerts list',
    prepare: anAlert,
    run: (c) => c.api.get(PATHS.alerts.list(c.team.id)),
    expect: EVERY_MEMBER,
  },
  {
    call: 'alerts create',
    run: (c) => c.api.post(PATHS.alerts.create(c.team.id), alertBody),
    expect: ALERT_MANAGERS,
  },
  {
    call: 'alerts update',
    prepare: anAlert,
    run: (c) => c.api.put(PATHS.alerts.update(c.team.id, al(c)), alertBody),
    expect: ALERT_MANAGERS,
  },
  {
    call: 'alerts delete',
    prepare: anAlert,
    run: (c) => c.api.send('DELETE', PATHS.alerts.remove(c.team.id, al(c))),
    //       A    B    K    V    S    N    Susp Del  U30  U40
    expect: 'ok   403  ok   403  ok   404  ok   ok   ok   ok',
  },
  {
    call: 'alerts rotate secret',
    prepare: anAlert,
    run: (c) => c.api.post(PATHS.alerts.rotateSecret(c.team.id, al(c))),
    expect: ALERT_MANAGERS,
  },
  {
    // A rule without a webhook: an allowed caller gets its 400 (no request leaves the machine).
    call: 'alerts send test',
    prepare: async (c) => {
      c.extra.alertId = (await buildAlert(c.server.app, c.team.id, {})).id;
    },
    run: (c) => c.api.post(PATHS.alerts.test(c.team.id, al(c))),
    expect: ALERT_MANAGERS,
  },
  {
    call: 'alerts delivery log',
    prepare: anAlert,
    run: (c) => c.api.get(PATHS.alerts.deliveries(c.team.id, al(c))),
    expect: EVERY_MEMBER,
  },
  {
    call: 'alerts preview',
    run: (c) => c.api.post(PATHS.alerts.preview(c.team.id), { metric: 'p2pShare', windowMinutes: 5 }),
    expect: EVERY_MEMBER,
  },
);

const ROLE_OF: Partial<Record<Column, RoleId>> = {
  A: Role.Admin,
  B: Role.BillingMaster,
  K: Role.KeyMaster,
  V: Role.Viewer,
  Susp: Role.Admin,
  Del: Role.Admin,
  U30: Role.Admin,
  U40: Role.Admin,
};

let server: TestServer;
beforeAll(async () => {
  // Verification look-ups, should a row ever reach one, stay on this machine (nothing listens there).
  server = await startServer({
    deps: { mailer: memoryMailer().mailer },
    env: { DNS_SERVERS: `127.0.0.1:${await closedPort()}` },
  });
});
afterAll(async () => {
  await server?.close();
});

async function cellFor(column: Column, row: Row): Promise<Cell> {
  const app = server.app;
  const owner = await buildUser(app, { password: PASSWORD });
  const target = await buildUser(app, { password: PASSWORD });
  const me = await buildUser(app, { password: PASSWORD, supervisor: column === 'S' });
  const role = ROLE_OF[column];
  const name = `Matrix ${column}`;
  const { id } = await buildTeam(app, {
    name,
    owner,
    roleOf: [{ user: target, role: Role.Viewer }, ...(role ? [{ user: me, role }] : [])],
  });
  const cell: Cell = { server, api: new Api(server.base), me, owner, target, team: { id, name }, extra: {} };
  await row.prepare?.(cell);
  if (column === 'Susp') await setTeamState(app, id, { suspended: 1 });
  if (column === 'Del') await setTeamState(app, id, { status_id: TeamStatus.DeletionRequested });
  if (column === 'U30' || column === 'U40') {
    await app.ctx.db
      .updateTable('users')
      .set({ user_status_id: column === 'U30' ? 30 : 40 })
      .where('id', '=', me.id)
      .execute();
  }
  cell.api = new Api(server.base, me.token);
  return cell;
}

const outcome = (r: Res) =>
  r.status === 403 || r.status === 404 || r.status === 401
    ? String(r.status)
    : r.status < 500
      ? 'ok'
      : `ERR${r.status}`;

describe('policy matrix (403 for a role or state that forbids, 404 for a non-member)', () => {
  it.each(ROWS.map((r) => [r.call, r] as const))('%s', async (_call, row) => {
    const expected = row.expect.trim().split(/\s+/);
    expect(expected).toHaveLength(COLUMNS.length);
    const actual: string[] = [];
    const details: string[] = [];
    for (const column of COLUMNS) {
      const r = await row.run(await cellFor(column, row));
      actual.push(outcome(r));
      details.push(`${column}=${r.status}`);
    }
    if (process.env.MATRIX_DEBUG) console.log(row.call, details.join(' '));
    // One comparison per row, so a failure shows the whole row: column by column.
    expect(Object.fromEntries(COLUMNS.map((c, i) => [c, actual[i]])), details.join(' ')).toEqual(
      Object.fromEntries(COLUMNS.map((c, i) => [c, expected[i]])),
    );
  });
});
