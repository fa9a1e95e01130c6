import { ZApiError, ZId } from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { MailOutboxRow } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { findOutboxMail, listOutboxMails } from './queries.js';
import { escapeHtml } from './templates.js';

const LIST_LIMIT = 200;

const ZOutboxMail = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  links: z.array(z.string()),
  createdAt: z.string(),
});
type TOutboxMail = z.infer<typeof ZOutboxMail>;

function presentMail(row: MailOutboxRow): TOutboxMail {
  const links: unknown = JSON.parse(row.links);
  return {
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    links: Array.isArray(links) ? links.filter((l): l is string => typeof l === 'string') : [],
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
li{margin:.8rem 0}small{color:#666}pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}</style></head>
<body>${body}</body></html>`;
}

const linkList = (links: string[]) =>
  links.map((l) => `<div><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></div>`).join('');

/** The local outbox (docs/DESIGN.md §3): every mail sent without SMTP_URL. Not registered in production. */
export function mailboxRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const hide = { hide: true };

    app.get('/mailbox', { schema: hide }, async (_req, reply) => {
      const mails = (await listOutboxMails(ctx.db, LIST_LIMIT)).map(presentMail);
      const items = mails
        .map(
          (m) =>
            `<li><a href="/mailbox/${m.id}"><b>${escapeHtml(m.subject)}</b></a> to ${escapeHtml(m.to)} <small>${m.createdAt}</small>${linkList(m.links)}</li>`,
        )
        .join('');
      const body = mails.length
        ? `<ul>${items}</ul>`
        : '<p>No mail yet. Sign up or ask for a password reset, then reload this page.</p>';
      return reply.type('text/html; charset=utf-8').send(page('Mailbox', `<h1>Local mailbox</h1>${body}`));
    });

    app.get('/mailbox/:id', { schema: { ...hide, params: z.object({ id: ZId }) } }, async (req, reply) => {
      const row = await findOutboxMail(ctx.db, req.params.id);
      if (!row) throw notFound();
      const m = presentMail(row);
      const body = `<p><a href="/mailbox">← all mails</a></p><h1>${escapeHtml(m.subject)}</h1>
<p>To ${escapeHtml(m.to)} <small>${m.createdAt}</small></p>${linkList(m.links)}<pre>${escapeHtml(m.text)}</pre>`;
      return reply.type('text/html; charset=utf-8').send(page(m.subject, body));
    });

    app.get('/mailbox.json', {
      schema: {
        ...hide,
        response: {
          200: z.object({ message: z.string(), data: z.array(ZOutboxMail) }),
          404: ZApiError,
        },
      },
      handler: async () => ({
        message: 'ok',
        data: (await listOutboxMails(ctx.db, LIST_LIMIT)).map(presentMail),
      }),
    });
  };
}
