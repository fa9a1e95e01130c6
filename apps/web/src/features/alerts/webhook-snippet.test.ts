import { createHmac, timingSafeEqual } from 'node:crypto';
import { type TWebhookPayload, WEBHOOK_HEADERS } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { guideBlocks } from '../guide/content';

/** The guide's Node receiver, its `verify` function run as printed against deliveries signed as docs/DESIGN.md
 *  §13 says the server signs them. */
const snippet = guideBlocks('https://dash.example', '/p.js')
  .alerts.flatMap((b) => ('copy' in b ? [b.copy] : []))
  .find((c) => c.label === 'Verify a delivery (Node)')?.value;
const source = snippet?.match(/function verify[\s\S]*?\n}\n/)?.[0];
const SECRET = `whsec_${'k'.repeat(43)}`;
type Verify = (rawBody: Buffer, header?: string) => boolean;
const verify = new Function(
  'createHmac',
  'timingSafeEqual',
  'SECRET',
  'TOLERANCE_S',
  `${source}\nreturn verify;`,
)(createHmac, timingSafeEqual, SECRET, 300) as Verify;

const body: TWebhookPayload = {
  type: 'alert.test',
  id: 'dlv_1',
  teamId: 5,
  alert: { id: 1, name: 'Ünïcode ✓', metric: 'p2pShare', op: 'below', threshold: 40, windowMinutes: 5 },
  value: null,
  openedAt: null,
  resolvedAt: null,
};
const raw = Buffer.from(JSON.stringify(body));
const sign = (t: number, bytes: Buffer, secret = SECRET) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.`).update(bytes).digest('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

describe('the guide’s webhook verification snippet', () => {
  it('reads the signature header by the contract’s name and accepts a fresh, well-signed delivery', () => {
    expect(snippet).toContain(`req.headers['${WEBHOOK_HEADERS.signature.toLowerCase()}']`);
    expect(snippet).toContain('timingSafeEqual');
    expect(verify(raw, sign(now(), raw))).toBe(true);
    expect(verify(raw, `${sign(now() - 60, raw).replace(',', ', ')}`)).toBe(true);
  });

  it('refuses a changed body, another secret, an old or missing timestamp, a missing header', () => {
    const changed = Buffer.from(JSON.stringify({ ...body, value: 1 }));
    expect(verify(changed, sign(now(), raw))).toBe(false);
    expect(verify(raw, sign(now(), raw, `whsec_${'x'.repeat(43)}`))).toBe(false);
    expect(verify(raw, sign(now() - 301, raw))).toBe(false);
    expect(verify(raw, sign(now(), raw).replace(/^t=\d+,/, ''))).toBe(false);
    expect(verify(raw, 't=abc,v1=00')).toBe(false);
    expect(verify(raw)).toBe(false);
  });
});
