import { createHmac, randomBytes } from 'node:crypto';
import type { TIceServer } from '@tlprt/contract';

/** The ICE servers of the configuration: STUN URLs as they are, TURN URLs with the shared secret that
 *  signs each viewer's short-lived credentials. */
export interface IceConfig {
  stun: string[];
  turn: string[];
  turnSecret: string | undefined;
  turnTtlS: number;
}

/**
 * The ICE servers one viewer is handed. TURN relays cost the operator bandwidth, and the public settings
 * read answers anyone holding a key hash, so no lasting secret is ever sent: each answer carries
 * credentials of the TURN REST scheme (coturn `use-auth-secret` / `static-auth-secret`): username =
 * "<expiry unix s>:<random id>", password = base64(HMAC-SHA1(secret, username)). The TURN server checks
 * the signature and the expiry itself; a copied pair stops working after `turnTtlS`.
 */
export function iceServersFor(ice: IceConfig, nowMs: number): TIceServer[] {
  const servers: TIceServer[] = ice.stun.map((urls) => ({ urls }));
  if (ice.turn.length === 0 || ice.turnSecret === undefined) return servers;
  const username = `${Math.floor(nowMs / 1000) + ice.turnTtlS}:${randomBytes(9).toString('base64url')}`;
  const credential = createHmac('sha1', ice.turnSecret).update(username).digest('base64');
  for (const urls of ice.turn) servers.push({ urls, username, credential });
  return servers;
}
