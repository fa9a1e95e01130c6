// A real SMTP server for the browser tests: the dashboard sends its mail here over SMTP, and the
// tests read what arrived through a small HTTP endpoint (GET /messages?to=<address>).
import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const smtpPort = Number(process.env.MAIL_SINK_SMTP_PORT ?? 2626);
const httpPort = Number(process.env.MAIL_SINK_HTTP_PORT ?? 2627);
const messages = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const html = typeof mail.html === 'string' ? mail.html : '';
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          html,
          links: [...new Set([...(mail.text ?? '').matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0]))],
          receivedAt: Date.now(),
        });
        callback();
      })
      .catch(callback);
  },
});
smtp.listen(smtpPort, '127.0.0.1');

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/health') return res.end('ok');
  if (url.pathname === '/messages') {
    const to = url.searchParams.get('to')?.toLowerCase();
    const list = to ? messages.filter((m) => m.to.includes(to)) : messages;
    res.setHeader('content-type', 'application/json');
    return res.end(JSON.stringify(list));
  }
  res.statusCode = 404;
  res.end();
}).listen(httpPort, '127.0.0.1');
