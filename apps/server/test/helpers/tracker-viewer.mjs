// One viewer of a stream, as the plugin is in a browser, in its own process (a browser each: the
// library keeps one peer id and one WebSocket per tracker URL for its whole page, so two viewers in
// one process would be one peer). p2p-media-loader-core's browser build, the one the plugin's bundle
// holds (bittorrent-tracker's WebSocket client and simple-peer inside), runs on Node's stand-ins for
// what a page has: WebRTC from webrtc-polyfill (node-datachannel, the library's own dependency),
// WebSocket from `ws` sending the page's Origin. The plugin's code (settings, failover) is the
// bundle tracker-failover.test.ts builds from its sources.
//
// argv[2]: { core, player, wrtc, ws, server, key, stream, segment, origin } (paths and URLs).
// Messages in: 'status' (answered { t: 'status', trackers, peers }), 'drop' (closes every peer link),
// 'stop'. Out: { t: 'ready', plan } once its settings are read and the core started.

const cfg = JSON.parse(process.argv[2]);
const wrtc = await import(cfg.wrtc);
const { WebSocket: NodeWebSocket } = await import(cfg.ws);

// node-datachannel gathers its candidates at once but never signals the end of gathering with a null
// candidate, as browsers do: simple-peer would then wait its 5 s fallback before every offer.
class PeerConnection extends wrtc.RTCPeerConnection {
  constructor(config) {
    super(config);
    let timer;
    this.addEventListener('icecandidate', (e) => {
      if (!e.candidate) return;
      clearTimeout(timer);
      timer = setTimeout(() => this.onicecandidate?.({ candidate: null }), 50);
    });
  }
}

// What the library's browser build reads of its page.
globalThis.self = globalThis;
globalThis.window = globalThis;
globalThis.location = { protocol: 'http:', href: `${cfg.origin}/` };
if (globalThis.navigator === undefined) globalThis.navigator = { userAgent: 'Node.js' };
Object.assign(globalThis, {
  RTCPeerConnection: PeerConnection,
  RTCSessionDescription: wrtc.RTCSessionDescription,
  RTCIceCandidate: wrtc.RTCIceCandidate,
});
globalThis.WebSocket = class extends NodeWebSocket {
  constructor(url, protocols) {
    super(url, protocols, { origin: cfg.origin });
  }
};

const { Core } = await import(cfg.core);
const player = await import(cfg.player);

const res = await fetch(`${cfg.server}/api/v1/public/key_settings/${cfg.key}`, {
  headers: { Origin: cfg.origin },
});
const { data } = await res.json();
const settings = player.readSettings(
  data.settings,
  data.iceServers,
  data.trackerNodes,
  data.trackerNodesAll,
  data,
);
const where = {
  trackerUrl: player.trackerUrlFor(cfg.server, settings, cfg.key, cfg.stream),
  key: cfg.key,
  streamUrl: cfg.stream,
};
const core = new Core(player.coreSettings(settings, where, true));
// What attach() hands followTrackers: an engine, whose core the walk reaches.
const engine = { core, addEventListener: (name, listener) => core.addEventListener(name, listener) };
const failover = new player.TrackerFailover(
  player.failoverPlanFor(cfg.server, settings, cfg.key, cfg.stream),
);
const stopFollowing = player.followTrackers(engine, failover);

core.setManifestResponseUrl(cfg.stream);
core.addStreamIfNoneExists({ runtimeId: 'main', type: 'main', index: 0 });
core.updateStream('main', [{ runtimeId: 'seg0', externalId: 0, url: cfg.segment, startTime: 0, endTime: 2 }]);
await core.loadSegment('seg0', { onSuccess() {}, onError() {} });

/** The library's peer links of this core (as peer-drop.ts finds them). */
function peerLinks() {
  const loaders = core.mainStreamLoader?.p2pLoaders?.loaders;
  const out = [];
  for (const item of loaders?.values() ?? []) {
    for (const p of item.loader.trackerClient._peers.values()) if (p.peer) out.push(p.peer);
  }
  return out;
}

process.on('message', (m) => {
  if (m === 'status') {
    process.send({
      t: 'status',
      trackers: player
        .engineTrackers(engine)
        .map((t) => ({ url: t.announceUrl, connected: t.socket?.connected === true })),
      peers: peerLinks().length,
      node: failover.node(),
    });
  } else if (m === 'drop') {
    for (const p of peerLinks()) p.destroy();
  } else if (m === 'stop') {
    stopFollowing();
    core.destroy();
    setTimeout(() => process.exit(0), 100);
  }
});
process.send({ t: 'ready', trackerNodes: data.trackerNodes });
