import { KeyStatus, MSG_DOMAIN_RULES, MSG_DOMAINS } from '@tlprt/contract';
import { HttpError } from '../../../http/errors.js';
import type { KeyView } from './queries.js';

/** While its domain is suspended, no key of that domain may change (403 keyChangeBlocked). */
const isDomainSuspended = (k: Pick<KeyView, 'domain_suspended'>): boolean => k.domain_suspended === 1;
/** Status 40 (suspended by a supervisor): name and power controls are locked. */
const isRestricted = (k: Pick<KeyView, 'status'>): boolean => k.status === KeyStatus.Restricted;

/** Any change of a key of a suspended domain is refused. */
export function assertKeyChangeable(k: KeyView): void {
  if (isDomainSuspended(k)) throw new HttpError(403, MSG_DOMAINS.keyChangeBlocked);
}

/** Rename and the customer's settings: also refused for a suspended (40) key. */
export function assertKeyEditable(k: KeyView): void {
  assertKeyChangeable(k);
  if (isRestricted(k)) throw new HttpError(403, MSG_DOMAINS.keySuspendedWarning);
}

/** The power toggle: only 10 ↔ 20. */
export function assertKeyToggleable(k: KeyView): void {
  assertKeyEditable(k);
  if (k.status !== KeyStatus.Active && k.status !== KeyStatus.Inactive) {
    throw new HttpError(403, MSG_DOMAIN_RULES.keyNotToggleable);
  }
}
