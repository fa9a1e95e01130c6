import type { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';
import { keepByteRangeLengths } from './byte-range-fix.js';
import type { Tally } from './counts.js';
import { type IntegrityReferences, SegmentGuard } from './integrity.js';
import { type HlsLiveConfig, liveWindows, readLivePlaylist, startLiveLag } from './live.js';
import { type OpeningWait, openingCore } from './opening.js';
import type { OwnNetworkFirst } from './own-network.js';
import { dropPeer } from './peer-drop.js';
import { coreSettings, type PlayerSettings, trackerUrlFor } from './settings.js';

/**
 * What the common path of attach does with the P2P engine, whichever integration made it: the config it
 * starts with, the guard of its segments, the live windows, the counting of its events.
 */

/** What the plugin uses of either engine (hls.js's and Shaka's have the same events and config calls). */
export type P2PEngine = Pick<HlsJsP2PEngine, 'addEventListener' | 'applyDynamicConfig'>;

/** The engine's core config for one stream of a usable key. */
export function engineCore(
  settings: PlayerSettings,
  at: { server: string; key: string; src: string; peering: boolean; openingMs: number },
  guard: SegmentGuard,
) {
  const streamUrl = new URL(at.src, location.href).href;
  return {
    ...coreSettings(
      settings,
      {
        // The tracker keeps each key's swarms apart: it must know the key of the connection.
        trackerUrl: trackerUrlFor(at.server, settings, at.key, streamUrl),
        key: at.key,
        streamUrl,
      },
      at.peering,
    ),
    validateP2PSegment: guard.validateP2P,
    validateHTTPSegment: guard.validateHttp,
    // The wait is applied per stream once its first download has begun (opening.ts).
    ...openingCore(at.openingMs),
  };
}

export type CoreConfig = ReturnType<typeof engineCore>;

/** The guard of every segment a peer sent, its verdicts counted; `engine` is the attach's once made. */
export function segmentGuard(
  references: IntegrityReferences,
  parts: { tally: Tally; ownNetwork: OwnNetworkFirst; opening: OpeningWait },
  engine: () => P2PEngine | undefined,
): SegmentGuard {
  const { tally, ownNetwork, opening } = parts;
  let p2pOff = false;
  return new SegmentGuard(references, {
    accepted: (bytes, crossBytes) => tally.accepted(bytes, crossBytes),
    otherNetwork: (peerId) => ownNetwork.isCross(peerId),
    rejected: (bytes) => tally.rejected(bytes),
    unverifiable: () => tally.unverifiable(),
    streamRefused() {
      // Nothing of this stream can be verified: peers would only cost the viewer time.
      const e = engine();
      if (p2pOff || !e) return;
      p2pOff = true;
      opening.stop();
      e.applyDynamicConfig({ core: { isP2PDisabled: true, isP2PUploadDisabled: true } });
    },
    dropPeer(peerId) {
      // The library announces a peer from inside its constructor, before it can be found: drop it next.
      setTimeout(() => {
        const e = engine();
        if (e) dropPeer(e, peerId);
      }, 0);
    },
  });
}

/** A live stream's windows and lag come from the stream itself, at its first playlist (live.ts). */
export function playlistWatcher(
  settings: PlayerSettings | null,
  engine: () => P2PEngine | undefined,
): (text: string, hlsConfig: HlsLiveConfig) => void {
  let liveSeen = false;
  return (text, hlsConfig) => {
    const e = engine();
    if (liveSeen || !settings || !e) return;
    const live = readLivePlaylist(text);
    if (!live) return;
    liveSeen = true;
    const windows = liveWindows(settings, live);
    if (!windows) return;
    e.applyDynamicConfig({ core: windows });
    startLiveLag(hlsConfig, live);
  };
}

/** The engine's downloads, uploads and peers: counted, checked by the guard, told to the opening wait
 *  and to the own-network preference. */
export function countEvents(
  e: P2PEngine,
  parts: { tally: Tally; guard: SegmentGuard; opening: OpeningWait; ownNetwork: OwnNetworkFirst },
): void {
  const { tally, guard, opening, ownNetwork } = parts;
  e.addEventListener('onChunkDownloaded', (bytes, source, peerId) => {
    if (source === 'http') tally.cdn(bytes);
    else guard.chunk(bytes, source, peerId);
  });
  let rangesKept = false;
  e.addEventListener('onSegmentStart', ({ segment, downloadSource, peerId }) => {
    // The first download is the first moment a request of the library exists to reach its class.
    if (!rangesKept && segment.byteRange) rangesKept = keepByteRangeLengths(e);
    opening.segmentStarted(segment.runtimeId);
    guard.segmentStarted(segment.url, segment.byteRange, downloadSource, peerId);
  });
  e.addEventListener('onSegmentError', ({ segment, error, peerId }) =>
    guard.segmentFailed(segment.url, segment.byteRange, error.type, peerId),
  );
  e.addEventListener('onChunkUploaded', (bytes) => tally.uploaded(bytes));
  e.addEventListener('onPeerConnect', ({ peerId }) => {
    tally.peerConnected(peerId);
    guard.peerConnected(peerId);
    ownNetwork.connected(peerId);
    tally.changed();
  });
  e.addEventListener('onPeerClose', ({ peerId }) => {
    tally.peerClosed(peerId);
    guard.peerClosed(peerId);
    ownNetwork.closed(peerId);
    tally.changed();
  });
}
