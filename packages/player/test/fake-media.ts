import type { MediaLike } from '../src/experience.js';

type MediaState = Partial<Pick<FakeVideo, 'paused' | 'seeking' | 'currentTime' | 'readyState' | 'error'>>;

/** A media element stand-in: its state is what the test sets, its events what the test fires. */
export class FakeVideo extends EventTarget implements MediaLike {
  paused = true;
  seeking = false;
  currentTime = 0;
  readyState = 0;
  error: { code: number } | null = null;
  /** Fires the event after setting what the browser would have set before it. */
  fire(type: string, state: MediaState = {}) {
    Object.assign(this, state);
    this.dispatchEvent(new Event(type));
  }
}
