import { describe, expect, it } from 'vitest';
import { fillShakaSegmentIndexes } from '../src/shaka-index.js';

/** An index like Shaka 4.16's DASH template index: references made when first asked for. */
function lazyIndex(count: number) {
  const references: Array<string | undefined> = new Array(count);
  return {
    references,
    getNumReferences: () => count,
    get(position: number) {
      references[position] ??= `ref-${position}`;
      return references[position];
    },
  };
}

describe("Shaka's lazily built segment indexes", () => {
  it('asks every index for each of its references once, after load and after a stream switch', () => {
    const video = { segmentIndex: lazyIndex(20) };
    const audio = { segmentIndex: lazyIndex(20) };
    const later: { segmentIndex: ReturnType<typeof lazyIndex> | null } = { segmentIndex: null };
    const listeners = new Map<string, () => void>();
    const player = {
      getManifest: () => ({
        variants: [
          { video, audio },
          { video: later, audio },
        ],
      }),
      addEventListener: (type: string, l: () => void) => listeners.set(type, l),
      removeEventListener: (type: string) => listeners.delete(type),
    };
    const stop = fillShakaSegmentIndexes(player);
    expect(video.segmentIndex.references.filter(Boolean)).toHaveLength(20);
    expect(audio.segmentIndex.references.filter(Boolean)).toHaveLength(20);

    // The other stream's index exists once Shaka switches to it.
    later.segmentIndex = lazyIndex(5);
    listeners.get('variantchanged')?.();
    expect(later.segmentIndex.references.filter(Boolean)).toHaveLength(5);
    stop();
    expect(listeners.size).toBe(0);
  });
});
