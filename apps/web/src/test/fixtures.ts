import type {
  TDomain,
  TDomainListResponse,
  TInvitation,
  TKey,
  TOrigin,
  TTeamDetail,
  TTeamMember,
  TTeamSummary,
  TUser,
} from '@tlprt/contract';

/** Contract-shaped data for component tests (each test builds what it needs). */
export function buildTeam(over: Partial<TTeamSummary> = {}): TTeamSummary {
  return {
    id: 5,
    name: 'Acme Video',
    website: 'acme.tv',
    role: 10,
    favourite: false,
    version: 0,
    statusId: 10,
    suspended: 0,
    suspendedProcess: 0,
    timezoneId: 37,
    timeZone: 'UTC',
    utcOffset: 0,
    createdAt: '2024-01-01T00:00:00.000Z',
    ...over,
  };
}

export function buildUser(over: Partial<TUser> = {}): TUser {
  return {
    id: 1,
    email: 'ada@example.com',
    name: 'Ada',
    surname: 'Lovelace',
    phone: '',
    image: 0,
    supervisor: false,
    userStatusId: 10,
    changePasswordAt: null,
    statusChangeEmail: 0,
    newChangeEmail: null,
    deleteProgress: 0,
    createdAt: '2024-01-01T00:00:00.000Z',
    TeamsRender: [buildTeam()],
    ...over,
  };
}

export function buildMember(over: Partial<TTeamMember> = {}): TTeamMember {
  return {
    id: 1,
    name: 'Ada',
    email: 'ada@example.com',
    roles: 10,
    image: 0,
    invite_status: 0,
    invite_id: null,
    inviting_user: null,
    isAdminUser: false,
    isSelectRole: true,
    isResendInviteUserTeam: false,
    ...over,
  };
}

export function buildDetail(team: TTeamSummary, over: Partial<TTeamDetail> = {}): TTeamDetail {
  return {
    ...team,
    users: [
      buildMember({ id: 1, email: 'ada@example.com', roles: team.role }),
      buildMember({ id: 2, name: 'Grace', email: 'grace@example.com', roles: 40 }),
    ],
    invited: [
      buildMember({
        id: 3,
        name: '',
        email: 'new@example.com',
        roles: 30,
        invite_status: 10,
        invite_id: 77,
        inviting_user: 1,
      }),
    ],
    tags: [],
    members: 2,
    countAdmin: 1,
    countUser: 2,
    permissionToDelete: 10,
    ...over,
  };
}

export function buildInvitation(over: Partial<TInvitation> = {}): TInvitation {
  return {
    id: 100,
    status: 10,
    role: 40,
    invited_email: 'ada@example.com',
    inviting_user: { id: 9, email: 'boss@example.com', name: 'Boss' },
    team: { id: 50, name: 'Other Team' },
    createdAt: '2024-01-01T00:00:00.000Z',
    expiresAt: '2024-01-08T00:00:00.000Z',
    ...over,
  };
}

export function buildKey(over: Partial<TKey> = {}): TKey {
  const id = over.id ?? 1;
  return {
    id,
    teamId: 5,
    domainId: 11,
    keyHash: `KEY${String(id).padStart(3, '0')}abcdefghijklmnopqrstuvwxyz0123456`.slice(0, 40),
    name: '',
    createdAt: '2024-03-03T12:00:00.000Z',
    status: 10,
    suspended: 0,
    ...over,
  };
}

/** A promoted, active, verified domain unless told otherwise. */
export function buildDomain(over: Partial<TDomain> = {}): TDomain {
  return {
    id: 11,
    teamId: 5,
    url: 'example.com',
    name: 'example.com',
    status: { id: 10, name: 'Active' },
    verification: { id: 1 },
    verificationMethod: { id: 4 },
    verificationHash: 'vh-123',
    draft: { id: 1 },
    suspended: 0,
    plainHttp: false,
    createdAt: '2024-03-01T12:00:00.000Z',
    keys: [],
    ...over,
  };
}

/** An unverified draft. */
export function buildDraft(over: Partial<TDomain> = {}): TDomain {
  return buildDomain({
    status: { id: 20, name: 'Inactive' },
    verification: { id: 0 },
    verificationMethod: null,
    draft: { id: 0 },
    ...over,
  });
}

/** The list response the server builds from every live domain. */
export function domainList(
  domains: TDomain[],
  deleted: TDomain[] = [],
  allDomains: TKey[] = [],
  deletedAllDomains: TKey[] = [],
): TDomainListResponse {
  return {
    message: 'ok',
    data: domains,
    drafts: domains.filter((d) => d.draft.id === 0),
    verified: domains.filter((d) => d.draft.id === 1),
    deleted,
    allDomains,
    deletedAllDomains,
  };
}

export function buildOrigin(over: Partial<TOrigin> = {}): TOrigin {
  const id = over.id ?? 1;
  return {
    id,
    url: `o${id}-t5.cdn.localhost`,
    name: `Origin ${id}`,
    status: { id: 10, name: 'Active' },
    suspended: 0,
    createdAt: '2024-03-03T12:00:00.000Z',
    host: null,
    verification: 'notHost',
    verifiedAt: null,
    verificationFile: null,
    ...over,
  };
}
