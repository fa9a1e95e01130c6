import type { AttachOptions } from '../attach.js';
import type { CoreConfig, P2PEngine } from '../engine.js';
import type { Experience } from '../experience.js';
import type { HlsLiveConfig } from '../live.js';
import type { Reporter } from '../reporter.js';

/**
 * How the plugin works with one kind of player (the players table's `kind`, packages/contract
 * players.ts): each kind is one module of this folder behind this interface, and index.ts lists them
 * in a record the compiler checks against the table's kinds. attach.ts is the common path around it.
 */
export interface Integration {
  /** This kind shares segments with other viewers (when the key's peering quota draws the viewer). */
  readonly peers: boolean;
  /** Wires the player into what the common path made. A promise only when the player must load first
   *  (Shaka): attach waits for it. A throw rejects attach. */
  attach(on: IntegrationContext): Wired | Promise<Wired>;
}

/** What the common path gives an integration. */
export interface IntegrationContext {
  readonly options: AttachOptions;
  /** The engine's config for a stream; none when the key is not usable (the player plays without P2P). */
  core(src: string): CoreConfig | undefined;
  /** Hands over the engine just made, before any player is bound to it: its events are counted from
   *  now on, the guard and the opening wait reach it, its tracker is followed. */
  listen(engine: P2PEngine): void;
  /** Every playlist an hls.js loads, with its settings (a live one sets the windows and the lag). */
  watchPlaylist(text: string, hlsConfig: HlsLiveConfig): void;
  /** The viewer's experience; none when the key is not usable. */
  readonly experience: Experience | null;
  /** None when the key is not usable (nothing is counted for a report then). */
  readonly reporter: Reporter | null;
  /** Bytes the player loaded from the CDN outside the engine's events. */
  cdnDownloaded(bytes: number): void;
  /** Run at detach, the last pushed first. */
  readonly cleanups: Array<() => void>;
}

/** What an integration hands back for the handle. */
export interface Wired {
  /** hls.js: the player the plugin made. */
  hls?: unknown;
  /** Players built on hls.js: the settings for their hls.js (none: empty). */
  hlsConfig?: Record<string, unknown>;
  /** Players built on hls.js: binds their hls.js (or Flowplayer's player) once it exists. */
  bindHls?(hls: unknown): void;
}

export function requireSrc(o: AttachOptions): string {
  if (!o.src) throw new TypeError(`TlprtP2P.attach: "src" (the stream's URL) is needed for ${o.player}`);
  return o.src;
}
