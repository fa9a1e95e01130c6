import { describe, expect, it } from 'vitest';
import { ZPublicKeySettingsResponse } from './domains.js';
import { ZIntegrityQuery, ZIntegrityResponse } from './endpoints/player.js';
import { issuesToFieldErrors } from './forms.js';
import { MSG, MSG_INTEGRITY } from './messages.js';
import {
  isIntegrityBody,
  isPlayerSettingsBody,
  NETWORK_TAG_PATTERN,
  networkTagOf,
  networkTagOfPeerId,
  PLAYER_PATHS,
  peerIdPrefixOf,
  sameNetwork,
  trackerNodeFor,
  trackerNodeOrder,
  UNKNOWN_NETWORK_TAG,
} from './player.js';
import { parseIntegrityRange } from './segment-fields.js';

const hex = 'a'.repeat(64);

describe('integrity answer: the plugin guard and the schema agree', () => {
  it.each<[string, unknown]>([
    ['a hash', { sha256: hex }],
    ['digits and letters', { sha256: '0123456789abcdef'.repeat(4) }],
    ['extra fields', { sha256: hex, more: 1 }],
    ['upper case', { sha256: hex.toUpperCase() }],
    ['63 digits', { sha256: hex.slice(1) }],
    ['65 digits', { sha256: `${hex}0` }],
    ['not hex', { sha256: 'g'.repeat(64) }],
    ['a number', { sha256: 1 }],
    ['no field', {}],
    ['null', null],
    ['a string', hex],
    ['an array', [hex]],
    ['a message', { message: 'The key is not usable here' }],
  ])('%s', (_name, body) => {
    const valid = ZIntegrityResponse.safeParse(body).success;
    expect(isIntegrityBody(body)).toBe(valid);
  });

  it('accepts exactly the well-formed ones', () => {
    expect(isIntegrityBody({ sha256: hex })).toBe(true);
    expect(isIntegrityBody({ sha256: hex.toUpperCase() })).toBe(false);
  });

  it('has its path among the plugin paths', () => {
    expect(PLAYER_PATHS.integrity).toBe('/player/v1/integrity');
  });
});

describe('integrity query', () => {
  const errorsOf = (q: unknown) => {
    const r = ZIntegrityQuery.safeParse(q);
    return r.success ? {} : issuesToFieldErrors(r.error.issues);
  };

  it('takes a key, an http(s) URL and an optional range', () => {
    expect(errorsOf({ key: 'k', url: 'https://cdn.example.com/a/seg-1.ts?x=1' })).toEqual({});
    expect(errorsOf({ key: 'k', url: 'http://cdn.example.com/seg.ts', range: '0-0' })).toEqual({});
  });

  it.each([
    ['missing', undefined, MSG.required],
    ['not web', 'ftp://cdn.example.com/seg.ts', MSG_INTEGRITY.url],
    ['relative', '/seg.ts', MSG_INTEGRITY.url],
    ['with credentials', 'https://u:p@cdn.example.com/seg.ts', MSG_INTEGRITY.url],
    ['too long', `https://cdn.example.com/${'a'.repeat(2048)}`, MSG_INTEGRITY.url],
  ])('names the url when it is %s', (_name, url, message) => {
    expect(errorsOf({ key: 'k', url })).toEqual({ url: message });
  });

  it.each(['5-4', '-1-3', '1-', 'a-b', '1-2-3', '0-1234567890123456', ''])(
    'refuses the range %j',
    (range) => {
      expect(errorsOf({ key: 'k', url: 'https://cdn.example.com/s.ts', range })).toEqual({
        range: MSG_INTEGRITY.range,
      });
    },
  );

  it('parses ranges with the end included', () => {
    expect(parseIntegrityRange('10-19')).toEqual({ start: 10, end: 19 });
    expect(parseIntegrityRange('7-7')).toEqual({ start: 7, end: 7 });
    expect(parseIntegrityRange('8-7')).toBeUndefined();
  });
});

describe('key settings answer: the plugin guard and the schema agree', () => {
  const data = { keyHash: 'k', settings: { '12': 5 }, iceServers: [{ urls: 'stun:stun.example:3478' }] };
  it.each([
    ['without tracker nodes', { data }, true],
    [
      'with tracker nodes',
      { data: { ...data, trackerNodes: ['https://a.example', 'https://b.example'] } },
      true,
    ],
    ['tracker nodes not a list', { data: { ...data, trackerNodes: 'https://a.example' } }, false],
    ['a tracker node not text', { data: { ...data, trackerNodes: [1] } }, false],
    [
      'with every tracker node besides the live ones',
      {
        data: {
          ...data,
          trackerNodes: ['https://a.example'],
          trackerNodesAll: ['https://a.example', 'https://b.example'],
        },
      },
      true,
    ],
    ['every tracker node not a list', { data: { ...data, trackerNodesAll: 'https://a.example' } }, false],
    ['a setting not a number', { data: { ...data, settings: { '12': 'x' } } }, false],
    ['with a network tag', { data: { ...data, networkTag: 'a9Z0' } }, true],
    ['a network tag not of 4 base-62 characters', { data: { ...data, networkTag: 'a9-0' } }, false],
    ['with the own peers that suffice', { data: { ...data, networkTag: 'a9Z0', matchMinPeers: 2 } }, true],
    ['own peers that suffice below 1', { data: { ...data, matchMinPeers: 0 } }, false],
    ['own peers that suffice not whole', { data: { ...data, matchMinPeers: 1.5 } }, false],
  ])('%s', (_, body, ok) => {
    expect(isPlayerSettingsBody(body)).toBe(ok);
    expect(ZPublicKeySettingsResponse.safeParse({ message: 'ok', ...body }).success).toBe(ok);
  });
});

describe('trackerNodeFor: the node of a swarm among TRACKER_NODES', () => {
  const swarms = Array.from({ length: 3000 }, (_, i) => `key${i % 7}:https://cdn.example/stream-${i}.m3u8`);
  const nodes = ['https://t1.example', 'https://t2.example', 'https://t3.example'];
  const placed = (list: readonly string[]) => swarms.map((s) => trackerNodeFor(s, list));

  it('is the same for every viewer whatever the order of the list, and spreads the swarms', () => {
    expect(placed(nodes)).toEqual(placed([...nodes].reverse()));
    for (const node of nodes) {
      const share = placed(nodes).filter((n) => n === node).length / swarms.length;
      expect(share).toBeGreaterThan(0.25);
      expect(share).toBeLessThan(0.42);
    }
    expect(trackerNodeFor('any', [])).toBeUndefined();
    expect(trackerNodeFor('any', ['https://only.example'])).toBe('https://only.example');
  });

  it('a node added takes only the swarms it wins; a node removed moves only its own', () => {
    const before = placed(nodes);
    const added = placed([...nodes, 'https://t4.example']);
    swarms.forEach((_, i) => {
      if (added[i] !== before[i]) expect(added[i]).toBe('https://t4.example');
    });
    expect(added.filter((n) => n === 'https://t4.example').length).toBeGreaterThan(swarms.length / 6);
    const removed = placed(nodes.slice(0, 2));
    swarms.forEach((_, i) => {
      if (removed[i] !== before[i]) expect(before[i]).toBe('https://t3.example');
    });
  });
});

describe('trackerNodeOrder: where a swarm goes when its node dies', () => {
  const nodes = ['https://t1.example', 'https://t2.example', 'https://t3.example', 'https://t4.example'];
  const swarms = Array.from({ length: 2000 }, (_, i) => `key${i % 5}:https://cdn.example/s-${i}.m3u8`);

  it('starts with trackerNodeFor, holds every node once, and is the same whatever the order of the list', () => {
    for (const s of swarms.slice(0, 200)) {
      const order = trackerNodeOrder(s, nodes);
      expect(order[0]).toBe(trackerNodeFor(s, nodes));
      expect([...order].sort()).toEqual(nodes);
      expect(trackerNodeOrder(s, [...nodes].reverse())).toEqual(order);
    }
    expect(trackerNodeOrder('any', [])).toEqual([]);
  });

  it('without a node, each swarm goes to the next node of its own order: the live ones keep their order', () => {
    for (const s of swarms.slice(0, 200)) {
      const order = trackerNodeOrder(s, nodes);
      const dead = order[0] as string;
      const live = nodes.filter((n) => n !== dead);
      expect(trackerNodeFor(s, live)).toBe(order[1]);
      expect(trackerNodeOrder(s, live)).toEqual(order.slice(1));
    }
  });

  it("a dead node's swarms spread over the others, not all onto one", () => {
    const dead = 'https://t1.example';
    const moved = swarms
      .filter((s) => trackerNodeFor(s, nodes) === dead)
      .map((s) => trackerNodeOrder(s, nodes)[1]);
    for (const n of nodes.slice(1))
      expect(moved.filter((m) => m === n).length).toBeGreaterThan(moved.length / 5);
  });
});

describe('networkTagOf and peer ids: which peers are of a viewer’s own network', () => {
  it('gives each network a stable tag of 4 base-62 characters, unknown its own', () => {
    const tags = Array.from({ length: 2000 }, (_, i) => networkTagOf(`AS${i + 1}`));
    for (const t of tags) expect(t).toMatch(NETWORK_TAG_PATTERN);
    expect(new Set(tags).size).toBeGreaterThan(1990);
    expect(networkTagOf('AS15169')).toBe(networkTagOf('AS15169'));
    expect(networkTagOf('')).toBe(UNKNOWN_NETWORK_TAG);
    expect(tags).not.toContain(UNKNOWN_NETWORK_TAG);
  });

  it('reads the tag back from a peer id made with its prefix, and nothing from another convention', () => {
    const tag = networkTagOf('AS64501');
    const id = `${peerIdPrefixOf(tag)}abcdefghijkl`;
    expect(id).toHaveLength(20);
    expect(networkTagOfPeerId(id)).toBe(tag);
    expect(networkTagOfPeerId('-PM0200-abcdefghijkl')).toBeUndefined();
    expect(networkTagOfPeerId(`${peerIdPrefixOf(tag)}short`)).toBeUndefined();
    expect(networkTagOfPeerId('-TLa-b$-abcdefghijkl')).toBeUndefined();
  });

  it('counts bytes as within a network only between two peers of the same known one', () => {
    const a = networkTagOf('AS64501');
    expect(sameNetwork(a, a)).toBe(true);
    expect(sameNetwork(a, networkTagOf('AS64502'))).toBe(false);
    expect(sameNetwork(UNKNOWN_NETWORK_TAG, UNKNOWN_NETWORK_TAG)).toBe(false);
    expect(sameNetwork(a, undefined)).toBe(false);
  });
});
