/**
 * Every e-mail the dashboard sends, as plain text and HTML. A template is a function of its facts
 * returning a finished mail; `compose` adds the shared frame (greeting, support contact, signature),
 * so a new mail (invitation, e-mail change, deletions) is one more small function here.
 */

export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /** Every link in the mail: logged and listed by the local outbox. */
  links: string[];
}

export interface MailFrame {
  supportEmail: string;
}

/** A paragraph, or a call to action rendered as a button in HTML and as a bare URL in text. */
type Block = string | { label: string; href: string };

const PRODUCT = 'TLPRT dashboard';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function compose(frame: MailFrame, subject: string, blocks: Block[]): MailContent {
  const support = `Need help? Write to ${frame.supportEmail}.`;
  const text = [
    'Hello,',
    ...blocks.map((b) => (typeof b === 'string' ? b : `${b.label}:\n${b.href}`)),
    support,
    `— ${PRODUCT}`,
  ].join('\n\n');
  const body = blocks
    .map((b) =>
      typeof b === 'string'
        ? `<p>${escapeHtml(b)}</p>`
        : `<p><a href="${escapeHtml(b.href)}" style="display:inline-block;padding:10px 18px;background:#1c7ed6;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(b.label)}</a></p>` +
          `<p style="font-size:12px;color:#666">Or open this address: ${escapeHtml(b.href)}</p>`,
    )
    .join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#222">
<p>Hello,</p>
${body}
<p>Need help? Write to <a href="mailto:${escapeHtml(frame.supportEmail)}">${escapeHtml(frame.supportEmail)}</a>.</p>
<p>— ${PRODUCT}</p>
</body></html>`;
  const links = blocks.flatMap((b) => (typeof b === 'string' ? [] : [b.href]));
  return { subject, text, html, links };
}

/** Sign-up: the link opens /createPassword/{hash}. */
export function registrationMail(frame: MailFrame, p: { createLink: string }): MailContent {
  return compose(frame, 'Confirm your e-mail and create a password', [
    'Thank you for signing up. Confirm your e-mail address and choose a password to start your free trial.',
    { label: 'Create password', href: p.createLink },
    'The link works once and expires in 24 hours. If you did not sign up, ignore this mail.',
  ]);
}

/** Sign-up with an e-mail that already has an account: says so only to the mailbox owner. */
export function alreadyRegisteredMail(
  frame: MailFrame,
  p: { loginLink: string; resetLink: string },
): MailContent {
  return compose(frame, 'You already have an account', [
    'Someone (probably you) tried to sign up with this e-mail address, but it already has an account.',
    { label: 'Sign in', href: p.loginLink },
    'Forgot your password? Choose a new one:',
    { label: 'Reset password', href: p.resetLink },
    'The reset link works once and expires in 24 hours. If it was not you, ignore this mail.',
  ]);
}

/** Password recovery: the link opens /resPassword/{hash}. */
export function passwordRecoveryMail(frame: MailFrame, p: { resetLink: string }): MailContent {
  return compose(frame, 'Reset your password', [
    'We received a request to reset the password of your account.',
    { label: 'Reset password', href: p.resetLink },
    'The link works once and expires in 24 hours. Resetting signs you out everywhere. If you did not ask, ignore this mail.',
  ]);
}
