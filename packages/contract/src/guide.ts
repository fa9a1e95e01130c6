import { KeySettingId } from './constants.js';

/**
 * Help texts of the key settings (spec §5: "Help text for settings"), shown in the key settings modals
 * and in the integration guide, with their units. The ids are spec §3's; what the plugin does with each
 * value is the guide's "Key settings" table.
 */
export const KEY_SETTING_HELP: Record<number, string> = {
  [KeySettingId.DownloadTimeout]:
    'Download timeout, in seconds: how long the player waits for a segment from a peer before it takes the segment from the CDN instead.',
  [KeySettingId.MinBufferSize]:
    'Min buffer size, in seconds of video: what the player keeps loaded ahead of the playhead. Segments needed within this time come from the CDN at once; those further ahead are asked from peers first.',
  [KeySettingId.PeeringOpeningQuota]:
    'Peering opening quota, in percent (0 to 100): the share of viewers of this key that open peer-to-peer connections. 0 turns peering off: every byte comes from the CDN.',
};

/** Spec §5's help items that are not per-key settings: what decides them. */
export const PLAYER_HELP = {
  segmentDuration:
    'Segment duration, in seconds: set by the stream itself (its packager), not by a key setting. Shorter segments reach peers sooner; 2 to 6 seconds work well.',
  downloadUpload:
    'Download and upload on/off: a viewer both downloads from and uploads to peers while peering is on for its key; a peering opening quota of 0 turns both off.',
} as const;
