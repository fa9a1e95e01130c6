// The demo page: hls.js with the P2P plugin on the demo stream, for the key given as ?key=.
(() => {
  const query = new URLSearchParams(location.search);
  const key = query.get('key') || '';
  // ?stream=byterange: the same segments as EXT-X-BYTERANGE ranges (the integrity test's second case);
  // ?stream=live: a live stream of the same segments, looped by the clock; ?stream=dash: its DASH copy.
  const stream = ['byterange', 'live', 'dash'].includes(query.get('stream')) ? query.get('stream') : 'index';
  const video = document.getElementById('video');
  const state = document.getElementById('state');
  const show = (id, text) => {
    document.querySelector(`[data-testid="${id}"]`).textContent = text;
  };
  const bytes = (n) => {
    const units = ['B', 'kB', 'MB', 'GB'];
    let i = 0;
    while (n >= 1000 && i < units.length - 1) {
      n /= 1000;
      i++;
    }
    return `${i === 0 ? n : n.toFixed(2)} ${units[i]}`;
  };
  document.getElementById('key').textContent = key || '(none)';
  if (!key) {
    state.textContent = 'No key: open this page as /demo/player?key=<key hash>.';
    state.className = 'off';
    return;
  }
  const stopped = (text) => {
    state.textContent = `Playback stopped: ${text}`;
    state.className = 'off';
  };
  // ?player=shaka: Shaka Player instead of hls.js (?stream=dash: the DASH copy of the stream).
  const withShaka = query.get('player') === 'shaka' || stream === 'dash';
  const src = new URL(
    stream === 'dash' ? '/demo/stream/dash/manifest.mpd' : `/demo/stream/${stream}.m3u8`,
    location.href,
  ).href;
  const loadScript = (url) =>
    new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = url;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`${url} could not be loaded`));
      document.head.append(s);
    });
  const loadStyle = (url) => {
    const l = document.createElement('link');
    l.rel = 'stylesheet';
    l.href = url;
    document.head.append(l);
  };
  // ?player=flowplayer: Flowplayer with its HLS plugin, as the Add domain snippet wires it.
  const withFlowplayer = query.get('player') === 'flowplayer' && !withShaka;
  const started = withFlowplayer
    ? loadScript('/demo/flowplayer.min.js')
        .then(() => loadScript('/demo/flowplayer-hls.min.js'))
        .then(async () => {
          loadStyle('/demo/flowplayer.css');
          const p2p = await TlprtP2P.attach({ key, player: 'flowplayer', src });
          const box = document.createElement('div');
          box.className = 'flowplayer-box';
          video.replaceWith(box);
          const player = flowplayer(box, { src, autoplay: true, muted: true, loop: true });
          p2p.bindHls(player);
          player.on('error', () => stopped('Flowplayer error'));
          return p2p;
        })
    : withShaka
      ? loadScript('/demo/shaka-player.compiled.js').then(async () => {
          const player = new shaka.Player();
          await player.attach(video);
          player.addEventListener('error', (e) => stopped(`Shaka error ${e.detail?.code}`));
          return TlprtP2P.attach({ key, player: 'shaka', instance: player, src });
        })
      : TlprtP2P.attach({ key, player: 'hls.js', instance: Hls, src, video }).then((p2p) => {
          p2p.hls.on(Hls.Events.ERROR, (_event, data) => {
            if (data.fatal) stopped(`${data.type} ${data.details}`);
            console.warn('hls.js', data.type, data.details, data.fatal ? 'fatal' : '');
          });
          return p2p;
        });
  started.then(
    (p2p) => {
      window.demoP2P = p2p;
      document.getElementById('session').textContent = p2p.sessionId;
      if (!p2p.active) {
        state.textContent =
          'This key is not usable (inactive, suspended or deleted): CDN only, nothing is reported.';
        state.className = 'off';
      } else {
        state.textContent = p2p.peering
          ? 'Key active: sharing segments with other viewers, reporting every 10 s.'
          : "Key active, peering off for this viewer (the key's peering quota): CDN only, reporting every 10 s.";
      }
      p2p.onUpdate((c) => {
        show('cdn', bytes(c.cdnBytes));
        show('p2p', bytes(c.p2pBytes));
        show('rejected', bytes(c.rejectedBytes));
        show('uploaded', bytes(c.uploadedBytes));
        show('peers', String(c.peers));
        const all = c.cdnBytes + c.p2pBytes;
        show('share', `${all ? Math.round((c.p2pBytes / all) * 100) : 0}%`);
      });
      document
        .querySelector('video')
        ?.play()
        .catch(() => {});
    },
    (err) => {
      state.textContent = `The plugin could not start: ${err.message}`;
      state.className = 'off';
    },
  );
})();
