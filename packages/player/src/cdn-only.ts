/** What a media segment's URL looks like (HLS and DASH segments, init and audio parts). */
const SEGMENT = /\.(ts|m4s|mp4|m4v|m4a|aac|cmfv|cmfa|webm|mp3)(\?|#|$)/i;

/**
 * Players without a P2P integration: the page's resource timing tells how many bytes its media requests
 * transferred. Cross-origin segments count only when their server sends `Timing-Allow-Origin` (else the
 * browser hides the size); the guide says so. Returns the function that stops counting.
 */
export function countResourceBytes(add: (bytes: number) => void): () => void {
  if (typeof PerformanceObserver === 'undefined') return () => {};
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceResourceTiming[]) {
      if (!SEGMENT.test(e.name)) continue;
      // Body bytes, as the guide counts them (transferSize adds the headers); none from the cache.
      if (e.transferSize > 0 && e.encodedBodySize > 0) add(e.encodedBodySize);
    }
  });
  observer.observe({ type: 'resource', buffered: false });
  return () => observer.disconnect();
}
