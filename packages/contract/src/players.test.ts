import { describe, expect, it } from 'vitest';
import { MORE_PLAYERS, PLAYER_INTEGRATION, PLAYER_TABLE, PLAYERS } from './players.js';

describe('the players table', () => {
  it('lists Add domain’s tabs and the More players in table order', () => {
    expect(PLAYERS).toEqual([
      'HLS.js',
      'Shaka',
      'Clappr',
      'Bitmovin',
      'Video.js',
      'Uppod',
      'Flowplayer',
      'Other',
    ]);
    expect(MORE_PLAYERS).toEqual(['Vidstack', 'DPlayer', 'MediaElement.js']);
  });

  it('gives one kind to each attach name, whichever rows share it', () => {
    for (const row of Object.values(PLAYER_TABLE)) expect(PLAYER_INTEGRATION[row.attach]).toBe(row.kind);
    expect(Object.keys(PLAYER_INTEGRATION).sort()).toEqual([
      'bitmovin',
      'clappr',
      'flowplayer',
      'generic',
      'hls.js',
      'mediaelement',
      'shaka',
      'uppod',
      'videojs',
      'vidstack',
    ]);
  });

  it('has each snippet hand its own attach name to the plugin, and its note mark code in pairs', () => {
    for (const p of [...PLAYERS, ...MORE_PLAYERS]) {
      const row = PLAYER_TABLE[p];
      expect(row.snippet.init.join('\n')).toContain(`player: '${row.attach}'`);
      expect(row.note.split('`').length % 2).toBe(1);
    }
  });
});
