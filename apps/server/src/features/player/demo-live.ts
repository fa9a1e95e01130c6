/**
 * The demo's live HLS stream: the demo's VOD segments played in a loop by the wall clock, as a live
 * encoder's sliding playlist would list them. Segment n of the timeline (n = seconds since the stream
 * started / segment duration) is VOD segment n mod count; its URL carries n, so every live segment has a
 * URL of its own, as a real live stream's do (P2P and the integrity check key segments by URL). Each
 * return to the first VOD segment restarts the timestamps: an EXT-X-DISCONTINUITY, counted by
 * EXT-X-DISCONTINUITY-SEQUENCE once it leaves the window.
 *
 * The stream starts when the server does, as an encoder's: counted from the epoch, the discontinuity
 * sequence was in the tens of millions, and hls.js walks an array indexed by it on every playlist
 * refresh (44% of a viewer's CPU, which starved three live viewers on two cores into stalls).
 */
export interface LiveLoop {
  /** The VOD segments' file names, in order. */
  files: string[];
  /** Each segment's duration, seconds (the VOD's target duration). */
  segmentS: number;
  /** Segments listed at once. */
  window: number;
  /** When segment 0 began, ms since the epoch. */
  startMs: number;
}

/**
 * The loop of a VOD playlist: its segment files (lines that are not tags) at its target duration,
 * started a full window before `nowMs`, so its first playlist already lists `window` segments.
 */
export function vodLoop(vodPlaylist: string, window: number, nowMs: number): LiveLoop {
  const lines = vodPlaylist.split('\n').map((l) => l.trim());
  const target = lines.find((l) => l.startsWith('#EXT-X-TARGETDURATION:'))?.split(':')[1];
  const segmentS = Number(target) > 0 ? Number(target) : 2;
  return {
    files: lines.filter((l) => l !== '' && !l.startsWith('#')),
    segmentS,
    window,
    startMs: nowMs - window * segmentS * 1000,
  };
}

export function livePlaylist(loop: LiveLoop, nowMs: number): string {
  const count = loop.files.length;
  // The newest listed segment is the last one whose end has passed, as an encoder publishes it.
  const newest = Math.floor((nowMs - loop.startMs) / 1000 / loop.segmentS) - 1;
  const first = Math.max(0, newest - loop.window + 1);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.ceil(loop.segmentS)}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${Math.floor(first / count)}`,
  ];
  for (let n = first; n <= newest; n += 1) {
    if (n !== first && n % count === 0) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${loop.segmentS.toFixed(3)},`, `${loop.files[n % count]}?live=${n}`);
  }
  return `${lines.join('\n')}\n`;
}
