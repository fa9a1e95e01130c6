import type { TInvitation, TTeamDetail, TTeamMember, TTeamSummary, TUser } from '@tlprt/contract';

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
