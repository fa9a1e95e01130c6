import nodemailer from 'nodemailer';
import type { Db } from '../db/index.js';
import type { Clock } from '../lib/clock.js';
import { insertOutboxMail } from './queries.js';
import type { MailContent } from './templates.js';

export interface Mailer {
  send(to: string, mail: MailContent): Promise<void>;
  close(): Promise<void>;
  /** Where mail goes, for the start-up banner. */
  readonly description: string;
}

type Log = { info: (obj: object, msg: string) => void };

/** Real delivery over SMTP_URL. */
export class SmtpMailer implements Mailer {
  private readonly transport: nodemailer.Transporter;
  readonly description: string;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
    const u = new URL(smtpUrl);
    this.description = `SMTP ${u.protocol}//${u.host}`;
  }

  async send(to: string, mail: MailContent): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** No SMTP_URL: every mail is kept in mail_outbox (shown at /mailbox) and its links are logged, so a
 *  sign-up can be followed on one machine. */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly db: Db,
    private readonly now: Clock,
    private readonly log: Log,
    readonly description: string,
  ) {}

  async send(to: string, mail: MailContent): Promise<void> {
    const id = await insertOutboxMail(this.db, { to, ...mail, createdAt: this.now() });
    this.log.info(
      { mailId: id, to, subject: mail.subject, links: mail.links },
      'mail stored in the local outbox',
    );
  }

  async close(): Promise<void> {}
}
