import { BREAKDOWN_UNKNOWN, KeySettingId, PeerMatching, type PeerMatchingValue } from '@tlprt/contract';
import type { UsableKey } from '../../access/usable-keys.js';
import type { AppContext } from '../../context.js';
import { isPublicAddress } from '../../net/address.js';
import type { ConnectionPlace } from './tracker-swarm.js';

/** The breakdowns' look-up (statistics/viewer-facts.ts ViewerFactsResolver): NETWORKS_FILE's ranges,
 *  then the shipped tables, which load on first use; answers "AS15169 Google LLC" and "US", or Unknown. */
export interface ViewerPlaces {
  ready(): Promise<void>;
  of(address: string | undefined, userAgent: string | undefined): { country: string; network: string };
}

/** How long a key's matching setting is remembered: a supervisor's change reaches new connections
 *  within this, without a query per connection (a reconnect storm opens thousands a second). */
const MODE_TTL_MS = 10_000;
const MODE_CACHE_MAX = 10_000;

const asnKey = (shipped: string): string => /^AS(\d+)\b/.exec(shipped)?.[1] ?? '';

/** Setting 102 as stored (a number of 0 to 2) → its meaning; anything else is the default. */
export function matchingOf(value: number): PeerMatchingValue {
  if (value >= PeerMatching.Network) return PeerMatching.Network;
  if (value >= PeerMatching.Country) return PeerMatching.Country;
  return value >= PeerMatching.Anyone ? PeerMatching.Anyone : PeerMatching.Network;
}

/** The place of each tracker connection: its network and country, and its key's matching setting. */
export class TrackerNetworks {
  private readonly modes = new Map<string, { value: Promise<PeerMatchingValue>; until: number }>();

  constructor(
    private readonly ctx: Pick<AppContext, 'keys' | 'log'>,
    /** NETWORKS_FILE's ranges first, then the shipped tables: the breakdowns' look-up. */
    private readonly facts: ViewerPlaces,
    /** A usable key's effective value of a setting (the key settings' layers, wired in by the app). */
    private readonly settingOf: (key: UsableKey, settingId: number) => Promise<number>,
  ) {}

  /** Starts loading the shipped tables, so the first viewers are not held up by it. */
  warm(): void {
    void this.facts.ready();
  }

  /** The network (`AS<number>`, '' unknown) and country of `address`; never rejects. */
  async locate(address: string): Promise<{ network: string; country: string }> {
    // The shipped tables hold public addresses only; until they are loaded they answer Unknown, which
    // a connection would keep for its whole life: its upgrade waits for them instead (once, ~1 s).
    if (isPublicAddress(address)) await this.facts.ready();
    const facts = this.facts.of(address, undefined);
    const asn = asnKey(facts.network);
    return {
      network: asn === '' ? '' : `AS${asn}`,
      country: facts.country === BREAKDOWN_UNKNOWN ? '' : facts.country,
    };
  }

  /** Setting 102 of a usable key (the default for any other: the upgrade is refused anyway). */
  matching(keyHash: string): Promise<PeerMatchingValue> {
    const now = Date.now();
    const cached = this.modes.get(keyHash);
    if (cached !== undefined && cached.until > now) return cached.value;
    if (this.modes.size >= MODE_CACHE_MAX) this.modes.clear();
    const value = this.readMatching(keyHash);
    this.modes.set(keyHash, { value, until: now + MODE_TTL_MS });
    return value;
  }

  async place(address: string, keyHash: string): Promise<ConnectionPlace> {
    const [where, matching] = await Promise.all([this.locate(address), this.matching(keyHash)]);
    return { ...where, matching };
  }

  private async readMatching(keyHash: string): Promise<PeerMatchingValue> {
    const fallback = matchingOf(Number.NaN);
    try {
      const k = await this.ctx.keys.find(keyHash);
      if (k === null) return fallback;
      return matchingOf(await this.settingOf(k, KeySettingId.PeerMatching));
    } catch (err) {
      // The origin check, on the same database, refuses the upgrade; a value is needed all the same.
      this.ctx.log.error({ err }, 'tracker: peer matching setting not read');
      this.modes.delete(keyHash);
      return fallback;
    }
  }
}
