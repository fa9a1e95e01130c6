import type { CoreSettings, PlayerSettings } from './settings.js';

/** How far behind the live edge hls.js and Shaka play by default: three segments. */
const LIVE_LAG_SEGMENTS = 3;

/**
 * The segment duration of a live HLS media playlist (its target duration), or undefined for a VOD or
 * event playlist that has ended, and for a master playlist (it lists no segments).
 */
export function liveSegmentSeconds(playlist: string): number | undefined {
  if (!playlist.startsWith('#EXTM3U') || !playlist.includes('#EXTINF')) return undefined;
  if (/^#EXT-X-ENDLIST\b/m.test(playlist) || /^#EXT-X-PLAYLIST-TYPE:VOD\b/m.test(playlist)) return undefined;
  const target = Number(/^#EXT-X-TARGETDURATION:\s*([\d.]+)/m.exec(playlist)?.[1]);
  return target > 0 ? target : undefined;
}

/**
 * The engine's windows for a live stream (issue 21), from its own segment duration. The player plays
 * about three segments behind the live edge, so each new segment is ahead of the playhead for that long
 * and no longer. The VOD mapping's 10 s high-demand window is longer than that lag: every new segment
 * would be fetched from the CDN the moment it appears, by every viewer (3–4% P2P). Here only the next
 * segment is in high demand; the rest of the lag is left to peers and to the engine's random CDN loads,
 * which spread each new segment's first download over the swarm. (One and a half segments left the
 * random loads too little time: two viewers in step both took most segments from the CDN, 28% P2P
 * against 50% with one segment, measured in the namespace test.) A min buffer set on
 * the key (setting 13 other than its default) keeps the VOD mapping: undefined.
 */
export function liveWindows(
  s: PlayerSettings,
  segmentS: number,
):
  | Pick<CoreSettings, 'highDemandTimeWindow' | 'httpDownloadTimeWindow' | 'p2pDownloadTimeWindow'>
  | undefined {
  if (s.minBufferSet || !(segmentS > 0)) return undefined;
  const lag = LIVE_LAG_SEGMENTS * segmentS;
  const highDemand = 1 * segmentS;
  return {
    highDemandTimeWindow: highDemand,
    httpDownloadTimeWindow: lag,
    p2pDownloadTimeWindow: Math.max(60, lag),
  };
}
