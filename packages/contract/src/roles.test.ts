import { describe, expect, it } from 'vitest';
import {
  ADMIN_ROLES,
  ASSIGNABLE_ROLES,
  DEFAULT_INVITE_ROLE,
  ENUM_DICTIONARIES,
  invitableRoles,
  isAdminRole,
  isAssignableRole,
  mayInviteRole,
  ROLE_ROWS,
  ROLES,
  Role,
  type RoleKey,
  type RoleTable,
  roleColor,
  roleName,
  TEAM_CREATOR_ROLE,
} from './index.js';

/*
 * The compile-time half: `npm run typecheck` compiles this file (packages/contract/tsconfig.test.json),
 * and each `@ts-expect-error` below fails the build if its line ever compiles. Together they show that
 * a role cannot be added to the table without a complete row.
 */
type WithAuditor = RoleKey | 'Auditor';
const auditor = {
  id: 60,
  name: 'Auditor',
  color: 'gray',
  assignable: false,
  invitedBy: [],
  rights: {
    administers: false,
    managesDomains: false,
    managesTokens: false,
    managesAlerts: false,
    leaves: false,
  },
} as const;

// A new role name without its row: the table no longer compiles.
// @ts-expect-error Property 'Auditor' is missing
const noRow: RoleTable<WithAuditor> = ROLES;

const partialRow = {
  ...ROLES,
  // @ts-expect-error a row lacking its colour, assignability, inviters and rights
  Auditor: { id: 60, name: 'Auditor' },
} satisfies RoleTable<WithAuditor>;

const unnamedRow = {
  ...ROLES,
  // @ts-expect-error a row whose name is not a RoleKey
  Auditor: auditor,
} satisfies RoleTable;

// With the name and a complete row, it compiles.
const complete = { ...ROLES, Auditor: auditor } satisfies RoleTable<WithAuditor>;

describe('roles table', () => {
  it('the type checks above are values too', () => {
    expect([noRow, partialRow, unnamedRow].every(Boolean)).toBe(true);
    expect(complete.Auditor.id).toBe(60);
  });

  it('ids, names and colours come from the rows', () => {
    expect(Role).toEqual({ Admin: 10, BillingMaster: 20, KeyMaster: 30, Viewer: 40, Supervisor: 50 });
    expect(Object.fromEntries(ROLE_ROWS.map((r) => [r.id, roleName(r.id)]))).toEqual({
      10: 'Admin',
      20: 'Billing master',
      30: 'Key master',
      40: 'Viewer',
      50: 'Supervisor',
    });
    expect(roleName(Role.KeyMaster)).toBe('Key master');
    expect(roleName(99)).toBe('Role 99');
    expect([Role.KeyMaster, Role.Admin, Role.Viewer].map(roleColor)).toEqual(['blue', 'yellow', 'gray']);
    expect(ENUM_DICTIONARIES.user_roles_in_team.map((r) => r.name)).toEqual(ROLE_ROWS.map((r) => r.name));
  });

  it('assignable roles and invitations (spec §5, §6)', () => {
    expect(ASSIGNABLE_ROLES).toEqual([Role.Admin, Role.KeyMaster, Role.Viewer]);
    expect(isAssignableRole(Role.BillingMaster)).toBe(false);
    expect(isAssignableRole(Role.Supervisor)).toBe(false);
    expect(invitableRoles(Role.Admin)).toEqual([Role.Admin, Role.KeyMaster, Role.Viewer]);
    expect(invitableRoles(Role.Supervisor)).toEqual([Role.Admin, Role.KeyMaster, Role.Viewer]);
    expect(invitableRoles(Role.KeyMaster)).toEqual([Role.KeyMaster, Role.Viewer]);
    expect(invitableRoles(Role.BillingMaster)).toEqual([]);
    expect(invitableRoles(Role.Viewer)).toEqual([]);
    expect(invitableRoles(null)).toEqual([]);
    expect(mayInviteRole(Role.KeyMaster, Role.Admin)).toBe(false);
    expect(mayInviteRole(Role.KeyMaster, Role.Viewer)).toBe(true);
    expect(invitableRoles(Role.Admin)).toContain(DEFAULT_INVITE_ROLE);
  });

  it('admins are the roles that administer (the sole-admin rule counts them)', () => {
    expect(ADMIN_ROLES).toEqual([Role.Admin, Role.Supervisor]);
    expect(ADMIN_ROLES.filter(isAssignableRole)).toEqual([Role.Admin]);
    expect([Role.Admin, Role.KeyMaster, Role.Viewer, Role.BillingMaster, null].map(isAdminRole)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(isAdminRole(TEAM_CREATOR_ROLE)).toBe(true);
  });
});
