import { z } from 'zod';
import { envelope, optionalText, requiredText, text, ZId } from './common.js';
import { DomainStatus, LIMITS } from './constants.js';
import { MSG, MSG_DOMAINS } from './messages.js';
import { NETWORK_TAG_PATTERN, type TIceServer } from './player.js';

/** A status object as the spec shapes it: `{id, name}`. */
export const ZStatusRef = z.object({ id: z.number().int(), name: z.string() });

/** A key (spec §3 "Key"). `status` is the shown status: an inactive domain shows its keys as 20. */
export const ZKey = z.object({
  id: z.number().int(),
  teamId: z.number().int(),
  /** null: the key applies to every domain of the team. */
  domainId: z.number().int().nullable(),
  keyHash: z.string(),
  name: z.string(),
  createdAt: z.string(),
  status: z.number().int(),
  suspended: z.number().int(),
});
export type TKey = z.infer<typeof ZKey>;

/** A domain (spec §3 "Domain"). `draft.id` 0 = still a draft (Add-domain screen), 1 = promoted. */
export const ZDomain = z.object({
  id: z.number().int(),
  teamId: z.number().int(),
  url: z.string(),
  name: z.string(),
  status: ZStatusRef,
  verification: z.object({ id: z.number().int() }),
  verificationMethod: z.object({ id: z.number().int() }).nullable(),
  verificationHash: z.string(),
  draft: z.object({ id: z.number().int() }),
  suspended: z.number().int(),
  /** Players on `http://` pages of the domain (default port) may use its keys; `https://` pages always
   *  may (PAGE_ORIGIN_RULE of guide.ts). */
  plainHttp: z.boolean(),
  createdAt: z.string(),
  keys: z.array(ZKey),
});
export type TDomain = z.infer<typeof ZDomain>;

/** POST /v1/domains/{teamId}: `data` every live domain; `drafts` the drafts; `verified` the promoted
 *  domains (the Active and Inactive lists of My domains); `deleted` the domains with deleted keys whose
 *  statistics are still kept, each with those keys (the Deleted group of the statistics list selector);
 *  `allDomains` the keys of no one domain; `deletedAllDomains` those deleted with statistics still kept. */
export const ZDomainListResponse = z.object({
  message: z.string(),
  data: z.array(ZDomain),
  drafts: z.array(ZDomain),
  verified: z.array(ZDomain),
  deleted: z.array(ZDomain),
  /** The team's live keys for all its domains (domainId null, spec §3): the "All domains" group of My
   *  domains and of the statistics list selector, counted in Active traffic. */
  allDomains: z.array(ZKey).default([]),
  deletedAllDomains: z.array(ZKey).default([]),
});
export type TDomainListResponse = z.infer<typeof ZDomainListResponse>;

/** Keys of no one domain shown as one more domain, "All domains" (My domains' group of its own, a row of
 *  the statistics list selector): screens that list keys by domain take them without a second path.
 *  Id 0 is no domain's; calls made from it name the key. */
export function allDomainsGroup(keys: TKey[]): TDomain {
  return {
    id: 0,
    teamId: keys[0]?.teamId ?? 0,
    url: MSG_DOMAINS.allDomains,
    name: MSG_DOMAINS.allDomains,
    status: { id: DomainStatus.Active, name: 'Active' },
    verification: { id: 1 },
    verificationMethod: null,
    verificationHash: '',
    draft: { id: 1 },
    suspended: 0,
    plainHttp: false,
    createdAt: keys[0]?.createdAt ?? new Date(0).toISOString(),
    keys,
  };
}

/** Reduces what a user typed to the bare host: scheme, `www.`, credentials, port, path, query removed,
 *  lower-cased, trailing dot dropped. Returns '' when nothing host-like remains. */
export function bareHost(input: string): string {
  let s = input.trim().toLowerCase();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  s = s.replace(/^[^@/]*@/, '');
  s = s.split(/[/?#]/)[0] ?? '';
  s = s.replace(/:\d*$/, '');
  s = s.replace(/\.$/, '');
  s = s.replace(/^www\./, '');
  return s;
}
/** A host we accept: at least two labels, letters/digits/hyphens (IDN as punycode), max 253. */
export const HOST_PATTERN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Characters that make the input a URL, a host with a port, an address literal or text, not a host. */
const NOT_A_BARE_HOST = /[\s/\\:@?#[\]%]/;

/**
 * A bare host name in its stored form (lower case, an internationalized name in its `xn--` form, the
 * trailing root dot dropped), or null when the input is not one: no scheme, path, port or spaces, at
 * least two labels, no IP literal. The URL standard does the conversion, so the browser and the server
 * compute the same form.
 */
export function asciiHost(input: string): string | null {
  const s = input.trim().replace(/\.$/, '');
  if (s === '' || s.length > 253 * 4 || NOT_A_BARE_HOST.test(s)) return null;
  let host: string;
  try {
    host = new URL(`http://${s}`).hostname;
  } catch {
    return null;
  }
  return HOST_PATTERN.test(host) ? host : null;
}

export const ZCreateDomainRequest = z.object({
  url: text('Required field').min(1, 'Required field').max(2000, MSG.tooLong(2000)),
  teamId: z.coerce.number().int().optional(),
});
/** `host`: the host stored, which differs from what was typed for an internationalized name. */
export const ZCreateDomainResponse = envelope(z.object({ id: z.number().int(), host: z.string() }));
/** POST /v1/cdn/, the older form of the domain list (spec §7): the team comes in the body. */
export const ZLegacyDomainListRequest = z.object({ teamId: ZId });

/** PUT /v1/domains/verify/{teamId}/{id}: method 1 CNAME, 2 dnsTXT, 3 HTML, 4 META, 5 supervisor bypass;
 *  `inx` is the draft's index on the screen (echoed back). */
export const ZVerifyDomainRequest = z.object({
  verificationMethod: z.coerce.number().int().min(1, 'Unknown method').max(5, 'Unknown method'),
  inx: z.coerce.number().int().optional(),
});
export const ZVerifyDomainResponse = z.object({
  message: z.string(),
  data: z.object({ verified: z.boolean(), inx: z.number().int().optional() }),
});

/** PUT /v1/domains/plain_http/{teamId}/{id}: the domain's "Plain HTTP pages" option, set (not
 *  toggled: a repeated request leaves it as asked). */
export const ZSetPlainHttpRequest = z.object({ plainHttp: z.boolean() });

/** The copyable instructions of the four methods (Add-domain step 1), for one draft. */
export const ZVerificationInstructions = z.object({
  meta: z.object({ tag: z.string() }),
  html: z.object({ fileName: z.string(), content: z.string(), url: z.string() }),
  dnsTxt: z.object({ name: z.string(), type: z.literal('TXT'), value: z.string() }),
  cname: z.object({ name: z.string(), type: z.literal('CNAME'), target: z.string() }),
});
export const ZVerificationInstructionsResponse = envelope(ZVerificationInstructions);

export const ZKeyListResponse = envelope(z.array(ZKey));
export const ZKeyResponse = envelope(ZKey);
export const ZCreateKeyRequest = z.object({ name: optionalText(LIMITS.nameMax).optional() });
export const ZRenameKeyRequest = z.object({ name: optionalText(LIMITS.nameMax) });

/** Key settings 12, 13, 101 (spec §3): the customer's own value, what the key inherits without one, and
 *  a supervisor's value for this key, which wins over both until a supervisor lifts it (null: none). */
export const ZKeySetting = z.object({
  id: z.number().int(),
  currentValue: z.number().nullable(),
  defaultValue: z.number(),
  supervisorValue: z.number().nullable(),
});
export type TKeySetting = z.infer<typeof ZKeySetting>;
export const ZKeySettingsResponse = envelope(z.array(ZKeySetting));
/** Numeric text becomes a number, empty becomes null (spec §5). */
export const ZSettingValue = z.preprocess(
  (v) => (v === '' || v === undefined ? null : typeof v === 'string' ? Number(v) : v),
  z.number({ error: 'Must be a number' }).finite('Must be a number').nullable(),
);
export const ZSetKeySettingsRequest = z.object({
  settings: z
    .array(z.object({ id: z.coerce.number().int(), value: ZSettingValue }))
    .min(1)
    .max(10),
});
/** One row of the supervisor settings table: each layer's value and whether it overrides. */
export const ZSupervisorSettingRow = z.object({
  param_name: z.string(),
  param_id: z.number().int(),
  param_default: z.number(),
  param_client: z.number().nullable(),
  override_client: z.number().int(),
  param_domain: z.number().nullable(),
  override_domain: z.number().int(),
  param_api_key: z.number().nullable(),
  override_api_key: z.number().int(),
  prod_value: z.number(),
  override_production: z.number().int(),
  domain_id: z.number().int().nullable(),
  key_id: z.number().int(),
});
export type TSupervisorSettingRow = z.infer<typeof ZSupervisorSettingRow>;
export const ZSupervisorSettingsResponse = envelope(z.array(ZSupervisorSettingRow));
export const ZSetSupervisorSettingsRequest = z.object({
  domainId: z.coerce.number().int().nullable().optional(),
  keyId: z.coerce.number().int().optional(),
  teamId: z.coerce.number().int().optional(),
  settings: z
    .array(
      z.object({
        id: z.coerce.number().int(),
        value: ZSettingValue,
        /** 1: this layer overrides the one below; 0: it inherits. */
        settingOverwrite: z.coerce.number().int().min(0).max(1),
      }),
    )
    .min(1)
    .max(10),
});
/** One STUN/TURN server of ICE_SERVERS (TIceServer of player.ts). */
export const ZIceServer = z.object({
  urls: z.string(),
  username: z.string().optional(),
  credential: z.string().optional(),
}) satisfies z.ZodType<TIceServer>;
/** GET /api/v1/public/key_settings/{keyHash}: what the player plugin reads. */
export const ZPublicKeySettingsResponse = envelope(
  z.object({
    keyHash: z.string(),
    settings: z.record(z.string(), z.number()),
    /** The server's ICE_SERVERS (docs/DESIGN.md §11): the only STUN/TURN servers the plugin uses. */
    iceServers: z.array(ZIceServer),
    /** TRACKER_NODES, when the swarms are spread over several servers: the plugin takes the tracker of
     *  each stream's swarm from it (trackerNodeFor). Only the nodes that answer the others' liveness
     *  polls (never empty). Absent: the answering server's own tracker. */
    trackerNodes: z.array(z.string()).optional(),
    /** Every TRACKER_NODES node, live or not: the plugin's failover order (trackerNodeOrder) and the
     *  first node it moves back to when it answers again. */
    trackerNodesAll: z.array(z.string()).optional(),
    /** The viewer's network as the tracker sees it (networkTagOf): the plugin's peer id carries it. */
    networkTag: z.string().regex(NETWORK_TAG_PATTERN).optional(),
    /** TRACKER_MATCH_MIN_PEERS: with this many peers of its own network, the plugin leaves the peers of
     *  other networks aside (it still serves them). */
    matchMinPeers: z.number().int().min(1).optional(),
  }),
);

/**
 * Whether the integrity service reads segments from an Origin's host (issue 36): `verified` (the
 * customer served the verification file on it), `domain` (the host is one of the team's verified,
 * active domains in My domains or under one: nothing to verify), `unverified` (never fetched from), or
 * `notHost` (the name is not a host name: nothing is fetched from it at all).
 */
export const ORIGIN_VERIFICATION = ['verified', 'domain', 'unverified', 'notHost'] as const;
export type TOriginVerification = (typeof ORIGIN_VERIFICATION)[number];

export const ZOrigin = z.object({
  id: z.number().int(),
  url: z.string(),
  name: z.string(),
  status: ZStatusRef,
  suspended: z.number().int(),
  createdAt: z.string(),
  /** The host the integrity service reads this Origin's segments from (the name as a host), or null. */
  host: z.string().nullable(),
  verification: z.enum(ORIGIN_VERIFICATION),
  verifiedAt: z.string().nullable(),
  /** While `unverified`: the file to serve at `url` (https, or http) before pressing Verify. */
  verificationFile: z.object({ url: z.string(), path: z.string(), content: z.string() }).nullable(),
});
export type TOrigin = z.infer<typeof ZOrigin>;
export const ZOriginListResponse = envelope(z.array(ZOrigin));
export const ZOriginResponse = envelope(ZOrigin);
/** An Origin is named with its host as the customer typed it (issue 39): a bare host name, stored in
 *  its `asciiHost` form; anything else is a 400 naming `name`. */
export const ZCreateOriginRequest = z.object({
  name: requiredText(LIMITS.originNameMax)
    .refine((s) => asciiHost(s) !== null, MSG_DOMAINS.originNotAHost)
    .transform((s) => asciiHost(s) ?? s),
});

/** One domain (promote, toggle, suspend answers). */
export const ZDomainResponse = envelope(ZDomain);

/** Texts of the domain, key, setting and origin rules the server enforces (beside MSG_DOMAINS). */
export const MSG_DOMAIN_RULES = {
  notVerified: 'Only a verified draft can be promoted',
  notPromoted: 'Only a domain in My domains can be switched on or off',
  plainHttpNotPromoted: 'Only a domain in My domains has the plain HTTP pages option',
  alreadyPromoted: 'This domain is already in My domains',
  keyNeedsPromotedDomain: 'Keys can be created only for a verified domain in My domains',
  keyNotToggleable: 'Only an active or inactive key can be switched on or off',
  originSuspended: 'This origin is suspended',
  unknownSetting: 'Unknown setting',
  settingRange: (min: number, max: number) => `Must be between ${min} and ${max}`,
  overrideNeedsValue: 'A value is required to override',
  keyIdRequired: 'A key is required for this layer',
  domainIdRequired: 'A domain is required for this layer',
  settingsSaved: 'Settings saved',
  domainDeleted: 'The domain has been deleted',
  keyDeleted: 'The key has been deleted',
  originDeleted: 'The origin has been deleted',
  originVerified: 'The origin is verified: the P2P integrity check now reads segments from it',
  /** Verify answered 400: the reason (status, address, timeout) goes to the log only, as for domains. */
  originVerificationFailed: (url: string) =>
    `The file was not found at ${url} with the content shown. Serve it there (https or http, answered with 200), then press Verify again.`,
  originNotHost:
    'Only an origin named with a host (e.g. cdn.example.com) can be verified: nothing is fetched from this one',
} as const;
