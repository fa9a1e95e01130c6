import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every http(s) URL in the text part. */
  links: string[];
}

/** A real SMTP server on 127.0.0.1 (port 0) that keeps every message it receives, parsed. */
export interface TestSmtp {
  url: string;
  mails: CapturedMail[];
  /** Resolves with the first mail to `to` (optionally matching) that arrives after `since` mails. */
  waitFor(to: string, match?: (m: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

function toCaptured(p: ParsedMail): CapturedMail {
  const to = Array.isArray(p.to) ? p.to.map((a) => a.text).join(', ') : (p.to?.text ?? '');
  const text = p.text ?? '';
  return {
    to,
    subject: p.subject ?? '',
    text,
    html: typeof p.html === 'string' ? p.html : '',
    links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
  };
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push(toCaptured(parsed));
          for (const w of waiters) w();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const waitFor: TestSmtp['waitFor'] = (to, match = () => true, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const find = () => mails.find((m) => m.to.includes(to) && match(m));
      const check = () => {
        const m = find();
        if (m) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(m);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The hash at the end of a mailed link: `<base>/<hash>`. */
export function hashOf(link: string): string {
  const last = new URL(link).pathname.split('/').pop();
  if (!last) throw new Error(`no hash in ${link}`);
  return last;
}
