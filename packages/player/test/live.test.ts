import { describe, expect, it } from 'vitest';
import { liveSegmentSeconds, liveWindows } from '../src/live.js';
import { readSettings } from '../src/settings.js';

const media = (tags: string[]) =>
  ['#EXTM3U', '#EXT-X-TARGETDURATION:2', ...tags, '#EXTINF:2.000,', 'a.ts', '#EXTINF:2.000,', 'b.ts'].join(
    '\n',
  );

describe('live streams', () => {
  it('recognises a live media playlist and reads its segment duration', () => {
    expect(liveSegmentSeconds(media(['#EXT-X-MEDIA-SEQUENCE:7']))).toBe(2);
    expect(liveSegmentSeconds(`${media([])}\n#EXT-X-ENDLIST\n`)).toBeUndefined();
    expect(liveSegmentSeconds(media(['#EXT-X-PLAYLIST-TYPE:VOD']))).toBeUndefined();
    // A master playlist lists variants, not segments.
    expect(liveSegmentSeconds('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n')).toBeUndefined();
    expect(liveSegmentSeconds('not a playlist')).toBeUndefined();
  });

  it('with the default min buffer, only the next segment is in high demand; the lag is left to peers', () => {
    const w = liveWindows(readSettings({}, []), 2);
    expect(w).toEqual({ highDemandTimeWindow: 2, httpDownloadTimeWindow: 6, p2pDownloadTimeWindow: 60 });
    // Longer segments, longer windows: the stream's own duration decides.
    expect(liveWindows(readSettings({}, []), 6)?.highDemandTimeWindow).toBe(6);
  });

  it('a min buffer set on the key keeps the VOD mapping', () => {
    expect(liveWindows(readSettings({ 13: 4 }, []), 2)).toBeUndefined();
    expect(liveWindows(readSettings({ 13: 10 }, []), 2)).toBeDefined();
  });
});
