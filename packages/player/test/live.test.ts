import { describe, expect, it } from 'vitest';
import { liveLagSegments, liveWindows, readLivePlaylist, startLiveLag } from '../src/live.js';
import { readSettings } from '../src/settings.js';

const media = (tags: string[], segments = 6) =>
  [
    '#EXTM3U',
    '#EXT-X-TARGETDURATION:2',
    ...tags,
    ...Array.from({ length: segments }, (_, i) => `#EXTINF:2.000,\ns${i}.ts`),
  ].join('\n');

describe('live streams', () => {
  it('recognises a live media playlist and reads its segment duration and count', () => {
    expect(readLivePlaylist(media(['#EXT-X-MEDIA-SEQUENCE:7']))).toEqual({ segmentS: 2, segments: 6 });
    expect(readLivePlaylist(`${media([])}\n#EXT-X-ENDLIST\n`)).toBeUndefined();
    expect(readLivePlaylist(media(['#EXT-X-PLAYLIST-TYPE:VOD']))).toBeUndefined();
    // A master playlist lists variants, not segments.
    expect(readLivePlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n')).toBeUndefined();
    expect(readLivePlaylist('not a playlist')).toBeUndefined();
    expect(readLivePlaylist(media([]).replace('TARGETDURATION:2', 'TARGETDURATION:0'))).toBeUndefined();
  });

  it('plays all listed segments but one behind the edge, from the start, unless the player chose its lag', () => {
    const live = { segmentS: 2, segments: 6 };
    expect(liveLagSegments(live)).toBe(5);
    expect(liveLagSegments({ segmentS: 2, segments: 3 })).toBe(3);
    const fresh = { liveSyncDurationCount: 3 };
    startLiveLag(fresh, live);
    expect(fresh.liveSyncDurationCount).toBe(5);
    const chosen = { liveSyncDurationCount: 2 };
    startLiveLag(chosen, live);
    expect(chosen.liveSyncDurationCount).toBe(2);
    const seconds = { liveSyncDuration: 7, liveSyncDurationCount: 3 };
    startLiveLag(seconds, live);
    expect(seconds.liveSyncDurationCount).toBe(3);
  });

  it('with the default min buffer, a segment and a half is in high demand; the rest of the lag is left to peers', () => {
    expect(liveWindows(readSettings({}, []), { segmentS: 2, segments: 6 })).toEqual({
      highDemandTimeWindow: 3,
      httpDownloadTimeWindow: 10,
      p2pDownloadTimeWindow: 60,
    });
    // Longer segments, longer windows: the stream's own duration decides.
    expect(liveWindows(readSettings({}, []), { segmentS: 6, segments: 10 })).toEqual({
      highDemandTimeWindow: 9,
      httpDownloadTimeWindow: 54,
      p2pDownloadTimeWindow: 60,
    });
    // A short playlist plays hls.js's three segments behind the edge: still two ahead of high demand.
    expect(liveWindows(readSettings({}, []), { segmentS: 2, segments: 3 })?.httpDownloadTimeWindow).toBe(6);
  });

  it('a min buffer set on the key keeps the VOD mapping', () => {
    expect(liveWindows(readSettings({ 13: 4 }, []), { segmentS: 2, segments: 6 })).toBeUndefined();
    expect(liveWindows(readSettings({ 13: 10 }, []), { segmentS: 2, segments: 6 })).toBeDefined();
  });
});
