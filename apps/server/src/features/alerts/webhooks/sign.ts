import { createHmac } from 'node:crypto';

/**
 * The `Tlprt-Signature` of a delivery (docs/DESIGN.md §13): `t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * The time is signed with the body so a receiver can refuse an old message replayed, and the body is
 * signed as the exact bytes sent (a receiver verifies the raw body before parsing it).
 */
export function webhookSignature(secret: string, unixSeconds: number, body: Buffer): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.`).update(body).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
