/**
 * The team roles (spec §6), one row each. Everything the code knows about a role is in its row, and
 * every other table keyed by role derives from this one: a new role is one name in `RoleKey` and one
 * row, and the compiler refuses the table until the row fills every column (roles.test.ts shows
 * it). Ids are what the database and the API carry.
 */

/** The roles, by name. Adding one here makes `ROLES` fail to compile until its row exists. */
export type RoleKey = 'Admin' | 'BillingMaster' | 'KeyMaster' | 'Viewer' | 'Supervisor';

/** Mantine colour names of the role badges (spec §2 / §9: Key master blue, Admin gold, Viewer gray). */
export type RoleColor = 'yellow' | 'grape' | 'blue' | 'gray';

/** What a role may do in its team, as plain data; policy.ts turns these into its predicates. */
export interface RoleRights {
  /** Edits the team's settings, changes roles, removes members, deletes the team. */
  administers: boolean;
  /** Adds, verifies, deactivates and deletes domains and manages keys. */
  managesDomains: boolean;
  /** Creates and revokes the team's API tokens (those who answer for the team's traffic and bill). */
  managesTokens: boolean;
  /** Creates, changes and deletes the team's alert rules (docs/DESIGN.md §13); every member sees them. */
  managesAlerts: boolean;
  /** Sees the leave option. */
  leaves: boolean;
}

export interface RoleRow {
  id: number;
  /** As every screen, e-mail and dictionary names it. */
  name: string;
  color: RoleColor;
  /** Offered by the role dropdowns (role change). */
  assignable: boolean;
  /** The roles that may offer this one in an invitation (spec §5); empty: never invited. */
  invitedBy: readonly RoleKey[];
  rights: RoleRights;
}

/** The shape of the roles table: one complete row for each name of `K`. */
export type RoleTable<K extends string = RoleKey> = { readonly [P in K]: RoleRow };

const none: RoleRights = {
  administers: false,
  managesDomains: false,
  managesTokens: false,
  managesAlerts: false,
  leaves: false,
};

export const ROLES = {
  Admin: {
    id: 10,
    name: 'Admin',
    color: 'yellow',
    assignable: true,
    invitedBy: ['Admin', 'Supervisor'],
    rights: {
      administers: true,
      managesDomains: true,
      managesTokens: true,
      managesAlerts: true,
      leaves: true,
    },
  },
  BillingMaster: {
    id: 20,
    name: 'Billing master',
    color: 'grape',
    assignable: false,
    invitedBy: [],
    rights: { ...none, managesDomains: true, managesTokens: true, leaves: true },
  },
  KeyMaster: {
    id: 30,
    name: 'Key master',
    color: 'blue',
    assignable: true,
    invitedBy: ['Admin', 'KeyMaster', 'Supervisor'],
    rights: { ...none, managesDomains: true, managesAlerts: true },
  },
  Viewer: {
    id: 40,
    name: 'Viewer',
    color: 'gray',
    assignable: true,
    invitedBy: ['Admin', 'KeyMaster', 'Supervisor'],
    rights: none,
  },
  /** The platform supervisor flag acts as this role in every team (policy.ts effectiveRole). */
  Supervisor: {
    id: 50,
    name: 'Supervisor',
    color: 'grape',
    assignable: false,
    invitedBy: [],
    rights: {
      administers: true,
      managesDomains: true,
      managesTokens: true,
      managesAlerts: true,
      leaves: false,
    },
  },
} as const satisfies RoleTable;

/** The role ids by name (`Role.Admin` is 10). */
export const Role = Object.fromEntries(Object.entries(ROLES).map(([k, r]) => [k, r.id])) as {
  readonly [K in RoleKey]: (typeof ROLES)[K]['id'];
};
export type RoleId = (typeof Role)[RoleKey];

/** The rows in table order (by id). */
export const ROLE_ROWS: readonly (RoleRow & { key: RoleKey; id: RoleId })[] = (
  Object.keys(ROLES) as RoleKey[]
).map((key) => ({ key, ...ROLES[key] }));

const rowById = new Map<number, (typeof ROLE_ROWS)[number]>(ROLE_ROWS.map((r) => [r.id, r]));
/** The row of a role id; undefined for a number that is no role. */
export const roleRow = (id: number | null | undefined) => (id == null ? undefined : rowById.get(id));

/** The name of a role id as shown everywhere; a number that is no role is shown as such. */
export const roleName = (id: number): string => roleRow(id)?.name ?? `Role ${id}`;
export const roleColor = (id: number): RoleColor => roleRow(id)?.color ?? 'grape';
/** The rights of a role id; none for no role (a stranger, or a number that is no role). */
export const roleRights = (id: number | null | undefined): RoleRights => roleRow(id)?.rights ?? none;

/** Role dropdowns show only these (spec §6: Admin, Key master, Viewer). */
export const ASSIGNABLE_ROLES: readonly number[] = ROLE_ROWS.filter((r) => r.assignable).map((r) => r.id);
export const isAssignableRole = (id: number): id is RoleId => roleRow(id)?.assignable === true;

/** The roles whose holders administer their team (rights.administers). The sole-admin rule (spec §6
 *  "The team must have at least one admin") counts the members holding one; SQL filters on this list.
 *  The supervisor's role is among them but no membership row holds it (policy.ts effectiveRole). */
export const ADMIN_ROLES: readonly RoleId[] = ROLE_ROWS.filter((r) => r.rights.administers).map((r) => r.id);
/** Does a member of this role administer the team? False for no role. */
export const isAdminRole = (id: number | null | undefined): boolean => roleRights(id).administers;

/** The role the creator of a team gets in it (spec §6: the creator becomes its admin). */
export const TEAM_CREATOR_ROLE: RoleId = Role.Admin;
/** The role an invitation offers unless another is picked. */
export const DEFAULT_INVITE_ROLE: RoleId = Role.Viewer;
/** The role of fewest rights: what a list shows for a team whose membership row it did not read. */
export const LEAST_ROLE: RoleId = Role.Viewer;

/** Roles a member of `role` may offer in an invitation, in table order. */
export function invitableRoles(role: number | null): RoleId[] {
  const key = roleRow(role)?.key;
  return key ? ROLE_ROWS.filter((r) => r.invitedBy.includes(key)).map((r) => r.id) : [];
}
/** May a member of `inviter` offer `role` in an invitation? */
export const mayInviteRole = (inviter: number | null, role: number): boolean =>
  (invitableRoles(inviter) as readonly number[]).includes(role);
