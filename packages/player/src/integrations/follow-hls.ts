import { type Experience, isMediaLike } from '../experience.js';

type HlsListener = (event: string, data: { media?: unknown; fatal?: boolean } | undefined) => void;
/** What the plugin follows of an hls.js instance for the viewer's experience. */
interface HlsEvents {
  media?: unknown;
  on(event: string, listener: HlsListener): void;
  off?(event: string, listener: HlsListener): void;
}
const hasHlsEvents = (h: unknown): h is HlsEvents =>
  typeof h === 'object' && h !== null && typeof (h as { on?: unknown }).on === 'function';

/** Follows each hls.js once: the element it plays in (now and whenever it attaches another) and its
 *  fatal errors. Nothing without an experience (a key that is not usable). */
export function hlsFollower(
  experience: Experience | null,
  cleanups: Array<() => void>,
): (h: unknown) => void {
  const followed = new WeakSet<object>();
  return (h) => {
    if (!experience || !hasHlsEvents(h) || followed.has(h)) return;
    followed.add(h);
    if (isMediaLike(h.media)) experience.observe(h.media);
    const attaching: HlsListener = (_event, data) => {
      if (isMediaLike(data?.media)) experience.observe(data.media);
    };
    const error: HlsListener = (_event, data) => {
      if (data?.fatal) experience.failure();
    };
    h.on('hlsMediaAttaching', attaching);
    h.on('hlsError', error);
    cleanups.push(() => {
      h.off?.('hlsMediaAttaching', attaching);
      h.off?.('hlsError', error);
    });
  };
}
