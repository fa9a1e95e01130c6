/**
 * Counts the segment bytes Shaka loads outside the P2P engine. p2p-media-loader-shaka hands every
 * request it does not manage (a segment its index does not list yet, one it cannot load) to
 * `shaka.net.HttpFetchPlugin.parse`, looked up at each call: those bytes come from the CDN but never
 * pass the engine's events, so the plugin would not report them (seen: Shaka's first HLS segment loaded
 * twice, ~4% of a viewer's bytes; DASH segments the engine did not know, ~97%). Wrapping that one entry
 * counts exactly them; the engine's own HTTP loads use fetch directly and stay counted by its events.
 * One wrapper per shaka namespace, shared by every attach on the page.
 */
type Operation = { promise: Promise<{ data?: ArrayBuffer | ArrayBufferView }> };
type Parse = (uri: string, request: unknown, type: number, ...rest: unknown[]) => Operation;
interface ShakaNet {
  net?: { HttpFetchPlugin?: { parse?: Parse }; NetworkingEngine?: { RequestType?: { SEGMENT?: number } } };
}

const counters = new WeakMap<object, Set<(bytes: number) => void>>();

export function countOutsideEngine(shaka: unknown, add: (bytes: number) => void): () => void {
  const ns = shaka as ShakaNet;
  const plugin = ns.net?.HttpFetchPlugin;
  const segment = ns.net?.NetworkingEngine?.RequestType?.SEGMENT;
  if (!plugin || typeof plugin.parse !== 'function' || segment === undefined) return () => {};
  let listeners = counters.get(plugin);
  if (!listeners) {
    const set = new Set<(bytes: number) => void>();
    listeners = set;
    counters.set(plugin, set);
    const original = plugin.parse.bind(plugin);
    plugin.parse = (uri, request, type, ...rest) => {
      const op = original(uri, request, type, ...rest);
      if (type === segment)
        op.promise.then(
          (r) => {
            const bytes = r.data?.byteLength ?? 0;
            if (bytes > 0) for (const l of set) l(bytes);
          },
          () => {},
        );
      return op;
    };
  }
  listeners.add(add);
  const own = listeners;
  return () => own.delete(add);
}
