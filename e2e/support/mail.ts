import { expect } from '@playwright/test';
import { E2E } from '../playwright.config';

export interface SunkMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  links: string[];
}

const MAIL_HTTP = `http://127.0.0.1:${E2E.mailHttpPort}`;

/** Waits until a mail to `to` whose subject matches arrives at the test SMTP server. */
export async function waitForMail(to: string, subject: RegExp, after = 0): Promise<SunkMail> {
  let found: SunkMail | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${MAIL_HTTP}/messages?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as (SunkMail & { receivedAt: number })[];
        found = list.filter((m) => m.receivedAt >= after && subject.test(m.subject)).at(-1);
        return Boolean(found);
      },
      { timeout: 15_000, message: `mail to ${to} matching ${subject}` },
    )
    .toBe(true);
  return found as SunkMail;
}

/** The first link in a mail whose path contains `part`. */
export function linkIn(mail: SunkMail, part: string): string {
  const link = mail.links.find((l) => l.includes(part));
  if (!link) throw new Error(`no link with ${part} in mail "${mail.subject}": ${mail.links.join(', ')}`);
  return link;
}

let counter = 0;
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${Date.now()}.${process.pid}.${counter}@e2e.test`;
}
