import type { CoreSettings, PlayerSettings } from './settings.js';

/** A live HLS media playlist as the plugin needs it: its segment duration and how many it lists. */
export interface LivePlaylist {
  segmentS: number;
  segments: number;
}

/**
 * A live HLS media playlist's target duration and segment count; undefined for a VOD or ended event
 * playlist, and for a master playlist (it lists no segments).
 */
export function readLivePlaylist(playlist: string): LivePlaylist | undefined {
  if (!playlist.startsWith('#EXTM3U') || !playlist.includes('#EXTINF')) return undefined;
  if (/^#EXT-X-ENDLIST\b/m.test(playlist) || /^#EXT-X-PLAYLIST-TYPE:VOD\b/m.test(playlist)) return undefined;
  const segmentS = Number(/^#EXT-X-TARGETDURATION:\s*([\d.]+)/m.exec(playlist)?.[1]);
  if (!(segmentS > 0)) return undefined;
  return { segmentS, segments: playlist.match(/^#EXTINF:/gm)?.length ?? 0 };
}

/** What the plugin sets of hls.js's settings (the object hls.js makes its loaders with). */
export interface HlsLiveConfig {
  liveSyncDuration?: number | null;
  liveSyncDurationCount?: number;
}

/** The engine's windows for a live stream. */
export type LiveWindows = Pick<
  CoreSettings,
  'highDemandTimeWindow' | 'httpDownloadTimeWindow' | 'p2pDownloadTimeWindow'
>;

/** hls.js's own live lag, in segments (its liveSyncDurationCount default). */
const HLSJS_LAG_SEGMENTS = 3;

/**
 * How many segments behind the live edge a viewer plays: all listed but one, as p2p-media-loader's hls.js
 * engine sets it once the stream plays. The longer the lag, the longer each new segment is ahead of every
 * playhead, and the longer the swarm has to pass it on before anyone needs it.
 */
export function liveLagSegments(live: LivePlaylist): number {
  return Math.max(HLSJS_LAG_SEGMENTS, live.segments - 1);
}

/**
 * hls.js settings read at the first playlist: the lag of `liveLagSegments` from the start. The engine
 * sets it too, but only after hls.js has chosen where to start, 3 segments behind the edge, where a new
 * segment is needed about as soon as it is published. Left alone when the player's own settings chose a
 * lag (anything but hls.js's default).
 */
export function startLiveLag(config: HlsLiveConfig, live: LivePlaylist): void {
  if (config.liveSyncDuration != null || config.liveSyncDurationCount !== HLSJS_LAG_SEGMENTS) return;
  config.liveSyncDurationCount = liveLagSegments(live);
}

/**
 * The engine's windows for a live stream, from the stream itself. Live viewers play in step, a fixed lag
 * behind the edge, so a new segment is ahead of every playhead for that lag and no longer. The VOD
 * mapping's 10 s high-demand window is longer than the lag: each new segment would go to the CDN the
 * moment it appears, from every viewer (3–4% P2P for three viewers, against a ceiling of 67%).
 *
 * - High demand: one and a half segments. What plays within it goes to the CDN when no peer has it;
 *   it is also the floor of the player's forward buffer. Three viewers, 2 s segments, six listed: 61%
 *   P2P over whole runs and no stall (two segments: 59%; one: 59–62%, a thinner buffer for nothing).
 * - A new segment is seen (published, then read at the player's next playlist refresh) one to two
 *   segments short of the lag of `liveLagSegments` ahead of the playheads: 6–8 s for 2 s segments,
 *   six listed. The time until it is in high demand is the swarm's: the engine's random CDN loads
 *   spread each new segment's first download over the viewers, and the others take it from them; once
 *   all three played, every segment came from the CDN once.
 *
 * A min buffer set on the key (13 other than its default) keeps the VOD mapping: undefined.
 */
export function liveWindows(s: PlayerSettings, live: LivePlaylist): LiveWindows | undefined {
  if (s.minBufferSet) return undefined;
  const { segmentS } = live;
  const lag = liveLagSegments(live) * segmentS;
  return {
    highDemandTimeWindow: 1.5 * segmentS,
    httpDownloadTimeWindow: lag,
    p2pDownloadTimeWindow: Math.max(60, lag),
  };
}
