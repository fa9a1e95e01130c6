/**
 * Disconnects one peer of a p2p-media-loader engine (hls.js or Shaka). The library drops a peer whose
 * segment failed validation but has no way to keep it out: the tracker hands it back at its next
 * announce. It offers no public call for this, so this walks its objects (core → stream loaders → P2P
 * loaders → tracker client → peers) as p2p-media-loader-core 2.3.1 names them; attach.test.ts holds the
 * walk to the real library so an upgrade that renames them fails there, not silently in customers' pages.
 */
type Bag = Record<string, unknown> | undefined;

const field = (o: unknown, name: string): Bag =>
  typeof o === 'object' && o !== null ? ((o as Record<string, unknown>)[name] as Bag) : undefined;

/** The peers a P2P engine is connected to or connecting to, by peer id, through its private objects. */
export function enginePeers(engine: unknown): Map<string, { peer?: { destroy(): void } }>[] {
  const core = field(engine, 'core');
  const out: Map<string, { peer?: { destroy(): void } }>[] = [];
  for (const name of ['mainStreamLoader', 'secondaryStreamLoader']) {
    const loaders = field(field(field(core, name), 'p2pLoaders'), 'loaders');
    if (!(loaders instanceof Map)) continue;
    for (const item of loaders.values()) {
      const peers = field(field(field(item, 'loader'), 'trackerClient'), '_peers');
      if (peers instanceof Map) out.push(peers as Map<string, { peer?: { destroy(): void } }>);
    }
  }
  return out;
}

/** True when the peer was found and disconnected. */
export function dropPeer(engine: unknown, peerId: string): boolean {
  let dropped = false;
  for (const peers of enginePeers(engine)) {
    const peer = peers.get(peerId)?.peer;
    if (peer) {
      peer.destroy();
      dropped = true;
    }
  }
  return dropped;
}
