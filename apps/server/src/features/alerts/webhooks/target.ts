import type { AppContext } from '../../../context.js';

/** PLACEHOLDER (issue 38, webhooks part): null when `url` may receive deliveries (its host resolves to
 *  public addresses, or private ones where VERIFY_ALLOW_PRIVATE allows them), else the field's message. */
export async function checkWebhookTarget(_ctx: AppContext, _url: string): Promise<string | null> {
  return null;
}
