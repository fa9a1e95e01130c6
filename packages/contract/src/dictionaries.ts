import { z } from 'zod';
import { envelope } from './common.js';
import { ROLE_ROWS } from './roles.js';

export const DICTIONARY_NAMES = [
  'userStatus',
  'user_roles_in_team',
  'team_statuses',
  'spy_users',
  'key_types',
  'key_subdomains',
  'key_statuses',
  'key_setting_13',
  'key_setting_12',
  'key_setting_101',
  'key_setting_102',
  'invitation_statuses',
  'domain_verification_methods',
  'domain_verification',
  'domain_statuses',
  'currency_ISO',
  'countries_ISO',
  'available_key_settings',
  'nodr_status',
] as const;
export type TDictionaryName = (typeof DICTIONARY_NAMES)[number];

export const ZDictionaryItem = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string(),
});
export type TDictionaryItem = z.infer<typeof ZDictionaryItem>;

export const ZDictionaries = z.object(
  Object.fromEntries(DICTIONARY_NAMES.map((n) => [n, z.array(ZDictionaryItem)])) as Record<
    TDictionaryName,
    z.ZodArray<typeof ZDictionaryItem>
  >,
);
export type TDictionaries = z.infer<typeof ZDictionaries>;
export const ZDictionariesResponse = envelope(ZDictionaries);

/** The enumerations whose names are the product's own (the rest are built from ISO data). */
export const TEAM_VERSION_NAMES: Record<number, string> = {
  0: 'Version 1.0 (Default)',
  1: 'Version 1.1 (Nodr)',
};
export const ENUM_DICTIONARIES = {
  userStatus: [
    { id: 10, name: 'Active' },
    { id: 30, name: 'Blocked' },
    { id: 40, name: 'Deleting' },
  ],
  user_roles_in_team: ROLE_ROWS.map(({ id, name }) => ({ id, name })),
  team_statuses: [
    { id: 10, name: 'Active' },
    { id: 30, name: 'Deletion requested' },
    { id: 40, name: 'Disabled' },
    { id: 50, name: 'Suspended' },
  ],
  spy_users: [
    { id: 0, name: 'Regular user' },
    { id: 1, name: 'Supervisor' },
  ],
  key_types: [
    { id: 1, name: 'Domain key' },
    { id: 2, name: 'Team key (all domains)' },
  ],
  key_subdomains: [
    { id: 0, name: 'This domain only' },
    { id: 1, name: 'Domain and subdomains' },
  ],
  key_statuses: [
    { id: 10, name: 'Active' },
    { id: 20, name: 'Inactive' },
    { id: 30, name: 'Locked' },
    { id: 40, name: 'Suspended' },
    { id: 50, name: 'Deleted' },
  ],
  key_setting_13: [
    { id: 13, name: 'Min buffer size, seconds' },
    { id: 'default', name: '10' },
  ],
  key_setting_12: [
    { id: 12, name: 'Download timeout, seconds' },
    { id: 'default', name: '5' },
  ],
  key_setting_101: [
    { id: 101, name: 'Peering opening quota, % (0 to 100)' },
    { id: 'default', name: '100' },
  ],
  key_setting_102: [
    { id: 102, name: 'Peer matching (2 network first, 1 country first, 0 anyone)' },
    { id: 'default', name: '2' },
  ],
  invitation_statuses: [
    { id: 10, name: 'Pending' },
    { id: 20, name: 'Accepted' },
    { id: 30, name: 'Declined' },
    { id: 40, name: 'Revoked' },
  ],
  domain_verification_methods: [
    { id: 1, name: 'CNAME' },
    { id: 2, name: 'dnsTXT' },
    { id: 3, name: 'HTML' },
    { id: 4, name: 'META' },
    { id: 5, name: 'Supervisor bypass' },
  ],
  domain_verification: [
    { id: 0, name: 'Not verified' },
    { id: 1, name: 'Verified' },
  ],
  domain_statuses: [
    { id: 10, name: 'Active' },
    { id: 20, name: 'Inactive' },
    { id: 40, name: 'Suspended' },
    { id: 50, name: 'Deleted' },
  ],
  available_key_settings: [
    { id: 12, name: 'Download timeout' },
    { id: 13, name: 'Min buffer size' },
    { id: 101, name: 'Peering opening quota' },
    { id: 102, name: 'Peer matching' },
  ],
  nodr_status: [
    { id: 0, name: 'Off' },
    { id: 1, name: 'On' },
  ],
} satisfies Partial<Record<TDictionaryName, { id: number | string; name: string }[]>>;
