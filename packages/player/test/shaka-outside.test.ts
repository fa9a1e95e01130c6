import { describe, expect, it } from 'vitest';
import { countOutsideEngine } from '../src/shaka-outside.js';

const SEGMENT = 1;
const MANIFEST = 0;
function fakeShaka() {
  const plugin = {
    parse: (_uri: string, _request: unknown, type: number) => ({
      promise: Promise.resolve({ data: new ArrayBuffer(type === SEGMENT ? 1000 : 50) }),
    }),
  };
  return { net: { HttpFetchPlugin: plugin, NetworkingEngine: { RequestType: { SEGMENT, MANIFEST } } } };
}

describe("Shaka's loads outside the P2P engine", () => {
  it('counts the segment bytes that pass HttpFetchPlugin.parse, not manifests; stops when asked', async () => {
    const shaka = fakeShaka();
    const a: number[] = [];
    const b: number[] = [];
    const stopA = countOutsideEngine(shaka, (n) => a.push(n));
    countOutsideEngine(shaka, (n) => b.push(n));
    const parse = shaka.net.HttpFetchPlugin.parse;
    await parse('https://cdn.example.net/seg1.m4s', {}, SEGMENT).promise;
    await parse('https://cdn.example.net/manifest.mpd', {}, MANIFEST).promise;
    await new Promise((r) => setTimeout(r, 0));
    expect(a).toEqual([1000]);
    expect(b).toEqual([1000]);
    stopA();
    await parse('https://cdn.example.net/seg2.m4s', {}, SEGMENT).promise;
    await new Promise((r) => setTimeout(r, 0));
    expect(a).toEqual([1000]);
    expect(b).toEqual([1000, 1000]);
  });

  it('leaves a namespace without the plugin alone', () => {
    expect(() => countOutsideEngine({}, () => {})()).not.toThrow();
  });
});
