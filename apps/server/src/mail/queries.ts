import type { Db } from '../db/index.js';
import type { MailOutboxRow } from '../db/schema.js';

interface OutboxInsert {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  createdAt: number;
}

export async function insertOutboxMail(db: Db, m: OutboxInsert): Promise<number> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      links: JSON.stringify(m.links),
      created_at: m.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function listOutboxMails(db: Db, limit: number): Promise<MailOutboxRow[]> {
  return db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

export function findOutboxMail(db: Db, id: number): Promise<MailOutboxRow | undefined> {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}
