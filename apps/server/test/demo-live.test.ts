import { describe, expect, it } from 'vitest';
import { livePlaylist, vodLoop } from '../src/features/player/demo-live.js';

const vod = [
  '#EXTM3U',
  '#EXT-X-TARGETDURATION:2',
  '#EXT-X-PLAYLIST-TYPE:VOD',
  ...['a.ts', 'b.ts', 'c.ts', 'd.ts'].flatMap((f) => ['#EXTINF:2.000000,', f]),
  '#EXT-X-ENDLIST',
].join('\n');
const started = Date.UTC(2026, 10, 26, 5, 0, 0);
const loop = vodLoop(vod, 3, started + 6000);
const at = (segment: number, intoS = 0) => started + (segment * 2 + intoS) * 1000;

describe('the demo live stream', () => {
  it('lists the window of segments whose end has passed, each with a URL of its own, and no end', () => {
    expect(loop).toEqual({
      files: ['a.ts', 'b.ts', 'c.ts', 'd.ts'],
      segmentS: 2,
      window: 3,
      startMs: started,
    });
    const text = livePlaylist(loop, at(10, 1.5));
    expect(text).toContain('#EXT-X-MEDIA-SEQUENCE:7\n');
    expect(text.split('\n').filter((l) => l.endsWith('.ts') || l.includes('?live='))).toEqual([
      'd.ts?live=7',
      'a.ts?live=8',
      'b.ts?live=9',
    ]);
    expect(text).not.toContain('ENDLIST');
    expect(text).not.toContain('PLAYLIST-TYPE');
  });

  it('marks each return to the first segment as a discontinuity and counts those that left the window', () => {
    const text = livePlaylist(loop, at(10, 1.5));
    expect(text).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:1\n');
    expect(text).toContain('#EXT-X-DISCONTINUITY\n#EXTINF:2.000,\na.ts?live=8');
    // Two seconds later the window starts at segment 8 itself: its discontinuity is counted, not listed.
    const later = livePlaylist(loop, at(11, 0.5));
    expect(later).toContain('#EXT-X-MEDIA-SEQUENCE:8\n#EXT-X-DISCONTINUITY-SEQUENCE:2\n');
    expect(later.match(/#EXT-X-DISCONTINUITY\n/g)).toBeNull();
  });

  it('starts when the server does, its window already full, its counters small', () => {
    const first = livePlaylist(loop, started + 6000);
    expect(first).toContain('#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n');
    expect(first.match(/\?live=/g)).toHaveLength(3);
    // Before a window's worth of the stream has passed (a clock set back), fewer segments, never negative.
    expect(livePlaylist(loop, started + 2500)).toContain('a.ts?live=0\n');
    expect(livePlaylist(loop, started + 2500)).not.toContain('live=-');
  });

  it('moves on by one segment every segment duration', () => {
    const seq = (ms: number) => Number(/MEDIA-SEQUENCE:(\d+)/.exec(livePlaylist(loop, ms))?.[1]);
    expect(seq(at(20, 1.99)) - seq(at(20, 0))).toBe(0);
    expect(seq(at(21)) - seq(at(20))).toBe(1);
  });
});
