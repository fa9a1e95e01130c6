/**
 * p2p-media-loader-shaka 2.2.2 learns a stream's segments by reading the array behind Shaka's segment
 * index when the player asks the index for a reference. Shaka 4.16 builds the index of a DASH
 * SegmentTemplate lazily: a sparse array, each reference made when first asked for. The library read the
 * holes, gave up, and knew none of the later segments, so a DASH stream played almost wholly outside the
 * engine (0–3% P2P). Asking the index for every reference once fills the array, and the library's own
 * hook then registers them all. Done after load and when Shaka switches streams (a new stream's index
 * is made then). A live index is read again by the library as it grows.
 */
interface SegmentIndex {
  getNumReferences(): number;
  get(position: number): unknown;
}
interface ShakaStream {
  segmentIndex?: SegmentIndex | null;
}
interface ShakaPlayer {
  getManifest?: () => { variants?: Array<{ video?: ShakaStream | null; audio?: ShakaStream | null }> } | null;
  addEventListener?: (type: string, listener: () => void) => void;
  removeEventListener?: (type: string, listener: () => void) => void;
}

const filled = new WeakSet<object>();

function fillIndexes(player: ShakaPlayer): void {
  for (const variant of player.getManifest?.()?.variants ?? [])
    for (const stream of [variant.video, variant.audio]) {
      const index = stream?.segmentIndex;
      if (!index || filled.has(index) || typeof index.get !== 'function') continue;
      filled.add(index);
      const count = index.getNumReferences();
      for (let position = 0; position < count; position += 1) index.get(position);
    }
}

/** Fills the player's segment indexes now and after each stream switch; returns the function that stops. */
export function fillShakaSegmentIndexes(player: unknown): () => void {
  const p = player as ShakaPlayer;
  fillIndexes(p);
  const onSwitch = () => fillIndexes(p);
  for (const type of ['variantchanged', 'adaptation', 'trackschanged']) p.addEventListener?.(type, onSwitch);
  return () => {
    for (const type of ['variantchanged', 'adaptation', 'trackschanged'])
      p.removeEventListener?.(type, onSwitch);
  };
}
