/**
 * What the viewer lived through (docs/DESIGN.md §7 "Viewer experience"), measured on the media element alone so
 * that every integration (hls.js, Shaka, players built on hls.js, CDN-only) counts the same way.
 *
 * Time is split without overlap: startup (play requested → first frame), playing (the picture
 * advancing), stalled (waiting for data after the first frame: rebuffering), and the rest (paused,
 * seeking, ended), which counts nowhere. Browsers differ in which events they fire and in what order;
 * the picture actually advancing (`timeupdate` with the position moving on, not seeking, enough data)
 * is the one sign they all give, so it also ends a startup, stall or seek whose `playing` never came.
 */

/** The counts since the previous `take()`. */
export interface ExperienceCounts {
  playMs: number;
  stallMs: number;
  /** One per play that reached its first frame (whole ms). */
  startupMs: number[];
  plays: number;
  failures: number;
}

/** What is read of the element (an HTMLVideoElement has it all; tests pass a stand-in). */
export interface MediaLike {
  readonly paused: boolean;
  readonly seeking: boolean;
  readonly currentTime: number;
  readonly readyState: number;
  readonly error?: { readonly code: number } | null;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
  requestVideoFrameCallback?(callback: () => void): number;
  cancelVideoFrameCallback?(handle: number): void;
}

type State =
  /** No play asked for yet, or the last one given up before its first frame, or failed. */
  | 'idle'
  /** Play asked for, first frame not shown yet. */
  | 'starting'
  | 'playing'
  /** Waiting for data after the first frame. */
  | 'stalled'
  /** A seek, until the picture moves on again: its wait is not a stall. */
  | 'seeking'
  /** Play asked for again after a pause, not moving yet. */
  | 'resuming'
  | 'paused'
  | 'ended';

/** HTMLMediaElement.HAVE_FUTURE_DATA: below it the element cannot be advancing. */
const HAVE_FUTURE_DATA = 3;
/** MediaError.MEDIA_ERR_ABORTED: the load was stopped on purpose (a new source), not a failure. */
const MEDIA_ERR_ABORTED = 1;

const EVENTS = [
  'play',
  'playing',
  'waiting',
  'seeking',
  'seeked',
  'pause',
  'ended',
  'emptied',
  'error',
  'timeupdate',
] as const;
type EventName = (typeof EVENTS)[number];

export const isMediaLike = (v: unknown): v is MediaLike =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as MediaLike).addEventListener === 'function' &&
  typeof (v as MediaLike).removeEventListener === 'function';

export class Experience {
  private media: MediaLike | null = null;
  private state: State = 'idle';
  /** When the state was entered or last accounted for: the open stretch of play or stall starts here. */
  private since: number;
  private playMs = 0;
  private stallMs = 0;
  private startups: number[] = [];
  private plays = 0;
  private failures = 0;
  /** When the play now starting was asked for; null when that moment was not seen. */
  private startAt: number | null = null;
  /** The last `playing` of the play now starting: the first frame is about then. */
  private playingAt: number | null = null;
  private frameRequest: number | null = null;
  /** The position last seen, to tell the picture moving on from a jump. */
  private lastPos = 0;
  /** The current play is counted (a play is counted when first asked for, and again after it ended). */
  private playCounted = false;
  /** A seek made while paused: the wait after play is asked for again belongs to it. */
  private seekWhilePaused = false;
  /** A failure is counted once per play: the element, hls.js and Shaka may each report the same one. */
  private failed = false;
  private readonly listeners: Record<EventName, () => void> = {
    play: () => this.onPlay(),
    playing: () => this.onPlaying(),
    waiting: () => this.onWaiting(),
    seeking: () => this.onSeeking(),
    seeked: () => this.onSeeked(),
    pause: () => this.onPause(),
    ended: () => this.onEnded(),
    emptied: () => this.onEmptied(),
    error: () => {
      const code = this.media?.error?.code;
      if (code !== undefined && code !== MEDIA_ERR_ABORTED) this.failure();
    },
    timeupdate: () => this.onTimeUpdate(),
  };

  constructor(
    media: MediaLike | null = null,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.since = now();
    this.observe(media);
  }

  /** Watches this element from now on (the one a player plays in can change: hls.js attaches another). */
  observe(media: MediaLike | null): void {
    if (media === this.media) return;
    this.release();
    this.state = 'idle';
    this.playCounted = false;
    this.seekWhilePaused = false;
    this.startAt = null;
    this.playingAt = null;
    if (!isMediaLike(media)) {
      this.media = null;
      return;
    }
    this.media = media;
    for (const e of EVENTS) media.addEventListener(e, this.listeners[e]);
    this.lastPos = media.currentTime;
    // The player asked for play before the plugin saw the element: a play, its startup unknown.
    if (!media.paused) {
      this.countPlay();
      this.state = 'starting';
    }
  }

  /** A fatal playback error the player reported (hls.js, Shaka). */
  failure(): void {
    if (this.failed) return;
    this.failed = true;
    this.failures += 1;
    this.cancelFrame();
    this.to('idle');
    // The failed play is over: asking for play again is a new play.
    this.playCounted = false;
    this.startAt = null;
  }

  /** The counts since the previous take; a stretch still going on is split here. */
  take(): ExperienceCounts {
    const t = this.now();
    // A pause no event told of (an element reloaded under a player that kept quiet, say).
    if (this.media?.paused && this.watching()) this.to('paused', t);
    this.account(t);
    const playMs = Math.floor(this.playMs);
    const stallMs = Math.floor(this.stallMs);
    // The fractions stay for the next take, so many takes add up to the time that passed.
    this.playMs -= playMs;
    this.stallMs -= stallMs;
    const out: ExperienceCounts = {
      playMs,
      stallMs,
      startupMs: this.startups.map((ms) => Math.round(ms)),
      plays: this.plays,
      failures: this.failures,
    };
    this.startups = [];
    this.plays = 0;
    this.failures = 0;
    return out;
  }

  /** Stops watching (the counts not yet taken stay takeable). */
  destroy(): void {
    this.release();
    this.media = null;
    this.state = 'idle';
  }

  private release(): void {
    const m = this.media;
    if (!m) return;
    this.account(this.now());
    this.cancelFrame();
    for (const e of EVENTS) m.removeEventListener(e, this.listeners[e]);
  }

  /** Past the first frame, play asked for: the states a pause ends. */
  private watching(): boolean {
    return (
      this.state === 'playing' ||
      this.state === 'stalled' ||
      this.state === 'seeking' ||
      this.state === 'resuming'
    );
  }

  /** Adds the open stretch up to `t` to its count. */
  private account(t: number): void {
    if (this.state === 'playing') this.playMs += Math.max(0, t - this.since);
    else if (this.state === 'stalled') this.stallMs += Math.max(0, t - this.since);
    this.since = t;
  }

  private to(state: State, t = this.now()): void {
    this.account(t);
    this.state = state;
  }

  private countPlay(): void {
    this.plays += 1;
    this.playCounted = true;
  }

  /** The picture moves: playing from `t` on. */
  private moving(t: number): void {
    this.to('playing', t);
    this.failed = false;
    this.seekWhilePaused = false;
  }

  private firstFrame(at: number): void {
    this.cancelFrame();
    if (this.startAt !== null) this.startups.push(Math.max(0, at - this.startAt));
    this.startAt = null;
    this.playingAt = null;
    // Nothing accrues while starting: playing is counted from the first frame.
    this.state = 'playing';
    this.since = at;
    this.failed = false;
  }

  private onPlay(): void {
    const t = this.now();
    if (this.state === 'idle' || this.state === 'ended') {
      if (this.state === 'ended' || !this.playCounted) this.countPlay();
      this.failed = false;
      this.startAt = t;
      this.playingAt = null;
      this.lastPos = this.media?.currentTime ?? 0;
      this.to('starting', t);
    } else if (this.state === 'paused') {
      this.failed = false;
      this.to(this.seekWhilePaused ? 'seeking' : 'resuming', t);
    }
  }

  private onPlaying(): void {
    const t = this.now();
    switch (this.state) {
      case 'idle':
        // Playing without a play seen (recovered by the player after a failure, or missed).
        if (!this.playCounted && !this.failed) this.countPlay();
        this.playCounted = true;
        this.startAt = null;
        this.to('starting', t);
        this.playingAt = t;
        this.requestFrame();
        return;
      case 'starting':
        this.playingAt = t;
        this.requestFrame();
        return;
      case 'stalled':
      case 'seeking':
      case 'resuming':
        this.moving(t);
        return;
      default:
    }
  }

  private onWaiting(): void {
    // A wait while starting is startup, one after a seek is the seek's; only one that interrupts
    // playback (or a resume after a pause) is a stall.
    if (this.state === 'playing' || this.state === 'resuming') this.to('stalled');
  }

  private onSeeking(): void {
    if (this.media) this.lastPos = this.media.currentTime;
    if (this.state === 'playing' || this.state === 'resuming') this.to('seeking');
    else if (this.state === 'paused') this.seekWhilePaused = true;
    // A stall lasts until playback goes on, seek or not (players also nudge the position to get past a
    // hole in the buffer); a seek while starting is part of the startup.
  }

  private onSeeked(): void {
    const m = this.media;
    if (!m) return;
    this.lastPos = m.currentTime;
    // A seek inside the buffer resumes at once, and then no `playing` comes.
    if (this.state === 'seeking' && !m.paused && m.readyState >= HAVE_FUTURE_DATA) this.moving(this.now());
  }

  private onPause(): void {
    const t = this.now();
    if (this.state === 'starting') {
      // Given up before its first frame: no startup. Asking again goes on with the same play.
      this.cancelFrame();
      this.startAt = null;
      this.playingAt = null;
      this.to('idle', t);
    } else if (this.watching()) {
      this.seekWhilePaused = this.state === 'seeking';
      this.to('paused', t);
    }
  }

  private onEnded(): void {
    if (this.state === 'idle') return;
    this.cancelFrame();
    this.startAt = null;
    this.to('ended');
  }

  private onEmptied(): void {
    // A new source once something played: its play is a new one. While starting, the player is
    // (re)loading the source the viewer asked to play.
    if (this.state === 'idle' || this.state === 'starting') return;
    this.to('idle');
    this.playCounted = false;
    this.seekWhilePaused = false;
  }

  private onTimeUpdate(): void {
    const m = this.media;
    if (!m) return;
    const pos = m.currentTime;
    const moved = pos > this.lastPos && !m.seeking && !m.paused && m.readyState >= HAVE_FUTURE_DATA;
    this.lastPos = pos;
    if (!moved) return;
    const t = this.now();
    switch (this.state) {
      case 'starting':
        // `playing` is when the element started; this confirms the picture did move on from there.
        this.firstFrame(this.playingAt ?? t);
        return;
      case 'idle':
        if (!this.playCounted && !this.failed) this.countPlay();
        this.playCounted = true;
        this.moving(t);
        return;
      case 'stalled':
      case 'seeking':
      case 'resuming':
        this.moving(t);
        return;
      default:
    }
  }

  /** The first frame actually shown, where the browser tells it (not in a hidden tab: `timeupdate` then). */
  private requestFrame(): void {
    const m = this.media;
    if (!m || this.frameRequest !== null || typeof m.requestVideoFrameCallback !== 'function') return;
    this.frameRequest = m.requestVideoFrameCallback(() => {
      this.frameRequest = null;
      if (this.media === m && this.state === 'starting' && !m.seeking) this.firstFrame(this.now());
    });
  }

  private cancelFrame(): void {
    if (this.frameRequest === null) return;
    this.media?.cancelVideoFrameCallback?.(this.frameRequest);
    this.frameRequest = null;
  }
}
