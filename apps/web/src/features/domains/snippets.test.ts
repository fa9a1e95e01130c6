import { PLAYER_PLUGIN_URL, PLAYERS } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { KEY_PLACEHOLDER, PLAYER_BUNDLES, playerSnippet } from './snippets';

const KEY = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd';

describe('player snippets (Add-domain step 2)', () => {
  it.each(PLAYERS.filter((p) => p !== 'Other'))(
    '%s loads its CDN bundle, then the plugin, with the key',
    (p) => {
      const s = playerSnippet(p, KEY);
      const bundle = PLAYER_BUNDLES[p].scripts[0] as string;
      expect(bundle).toMatch(/^https:\/\//);
      expect(s).toContain(`<script src="${bundle}"></script>`);
      expect(s).toContain(`<script src="${PLAYER_PLUGIN_URL}"></script>`);
      expect(s.indexOf(bundle)).toBeLessThan(s.indexOf(PLAYER_PLUGIN_URL));
      expect(s).toContain(`var KEY = '${KEY}';`);
      expect(s).toContain('TlprtP2P.attach({ key: KEY');
    },
  );

  it('HLS.js comes from jsdelivr and attaches before loading the source', () => {
    const s = playerSnippet('HLS.js', KEY);
    expect(s).toContain('https://cdn.jsdelivr.net/npm/hls.js@1/dist/hls.min.js');
    expect(s).toContain("player: 'hls.js', instance: hls");
    expect(s.indexOf('TlprtP2P.attach')).toBeLessThan(s.indexOf('hls.loadSource'));
  });

  it('Video.js and Flowplayer also link their stylesheets', () => {
    expect(playerSnippet('Video.js', KEY)).toContain('<link rel="stylesheet" href="https://vjs.zencdn.net/');
    expect(playerSnippet('Flowplayer', KEY)).toContain(
      '<link rel="stylesheet" href="https://cdn.flowplayer.com/',
    );
  });

  it('Other: only the plugin, for any player', () => {
    const s = playerSnippet('Other', KEY);
    expect(s.match(/<script src=/g)).toHaveLength(1);
    expect(s).toContain("player: 'generic'");
  });

  it('without a key the placeholder is used', () => {
    expect(playerSnippet('Shaka', null)).toContain(`var KEY = '${KEY_PLACEHOLDER}';`);
  });

  it('is stable (snapshot of the HLS.js snippet)', () => {
    expect(playerSnippet('HLS.js', 'k')).toMatchInlineSnapshot(`
      "<script src="https://cdn.jsdelivr.net/npm/hls.js@1/dist/hls.min.js"></script>
      <script src="https://cdn.jsdelivr.net/npm/@tlprt/p2p-plugin@1/dist/tlprt-p2p.min.js"></script>

      <video id="video" controls playsinline></video>
      <script>
        var KEY = 'k';
        var video = document.getElementById('video');
        var hls = new Hls();
        TlprtP2P.attach({ key: KEY, player: 'hls.js', instance: hls });
        hls.loadSource('https://example.com/stream/master.m3u8');
        hls.attachMedia(video);
      </script>"
    `);
  });
});
