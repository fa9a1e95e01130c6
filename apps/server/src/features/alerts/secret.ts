import { randomToken } from '../../lib/tokens.js';

/** A webhook signing secret (WEBHOOK_SECRET_PATTERN): a recognisable prefix, so a leaked one is easy to
 *  spot in a log or a repository, and 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomToken(32)}`;
