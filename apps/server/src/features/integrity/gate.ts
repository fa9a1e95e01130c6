import { MSG_INTEGRITY } from '@tlprt/contract';
import type { UsableKey } from '../../access/usable-keys.js';
import type { AppContext } from '../../context.js';
import { addressGroup } from '../../http/client-address.js';
import { HttpError, tooManyRequests } from '../../http/errors.js';
import { SlidingWindowCounter } from '../../lib/sliding-window.js';
import type { IntegrityService } from './service.js';

/** How long a browser or a CDN in front of the server may reuse a hash: a node's own memory keeps it
 *  as long before it reads the shared table again (a hash is not a secret; a reused answer costs
 *  nothing and fetches nothing). */
export const HASH_ANSWER_CACHE_CONTROL = 'public, max-age=60';

/**
 * The checks every integrity question passes, in order, whichever path answers it: the address's
 * budget (429), the key usable and the Origin one of its pages (404; CORS from here on), the key's
 * budget (429). Then the query's schema (400) and the service.
 */
export interface IntegrityGate {
  readonly ctx: AppContext;
  readonly svc: IntegrityService;
  /** Counts one question of `address`: 0 when within its budget, else the wait in milliseconds. */
  addressWait(address: string): number;
  /** The key of a usable hash asked from `origin`, its question counted; undefined for a hash the
   *  schema will refuse (missing, repeated, too long). */
  admit(hash: unknown, origin: string | undefined): Promise<UsableKey | undefined>;
}

export function createGate(ctx: AppContext, svc: IntegrityService): IntegrityGate {
  const { perAddressPerMinute, perKeyPerMinute } = ctx.config.integrity;
  const perAddress = new SlidingWindowCounter(perAddressPerMinute, 60_000, ctx.now);
  const perKey = new SlidingWindowCounter(perKeyPerMinute, 60_000, ctx.now);
  return {
    ctx,
    svc,
    addressWait: (address) => perAddress.hit(addressGroup(address)),
    async admit(hash, origin) {
      if (typeof hash !== 'string' || hash === '' || hash.length > 200) return undefined;
      const key = await ctx.keys.find(hash);
      if (key === null || (origin !== undefined && !(await ctx.origins.forKey(hash, origin))))
        throw new HttpError(404, MSG_INTEGRITY.keyNotUsable);
      const wait = perKey.hit(key.hash);
      if (wait > 0) throw tooManyRequests(wait, MSG_INTEGRITY.tooManyForKey);
      return key;
    },
  };
}
