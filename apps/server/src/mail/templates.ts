import { MSG_ALERTS, PRODUCT_NAME, roleName } from '@tlprt/contract';
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

interface MailFrame {
  supportEmail: string;
}

/** A paragraph, or a call to action rendered as a button in HTML and as a bare URL in text. */
type Block = string | { label: string; href: string };

const PRODUCT = PRODUCT_NAME;

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

const teamLabel = (name: string, id: number) => (name ? `"${name}"` : `Team ID ${id}`);

interface InvitationFacts {
  teamName: string;
  teamId: number;
  inviterEmail: string;
  role: number;
  acceptLink: string;
  declineLink: string;
}

/** Invitation to an address without an account: the link opens the invite "Create account" form. */
export function invitationNewUserMail(frame: MailFrame, p: InvitationFacts): MailContent {
  return compose(frame, `You are invited to join ${teamLabel(p.teamName, p.teamId)}`, [
    `${p.inviterEmail} invites you to join the team ${teamLabel(p.teamName, p.teamId)} on the ${PRODUCT} as ${roleName(p.role)}.`,
    'Create your account to accept:',
    { label: 'Create account and join', href: p.acceptLink },
    'Not interested? Decline the invitation:',
    { label: 'Decline invitation', href: p.declineLink },
    'The links work once and expire in 7 days.',
  ]);
}

/** Invitation to an existing account: accepting needs the invited account signed in. */
export function invitationExistingUserMail(frame: MailFrame, p: InvitationFacts): MailContent {
  return compose(frame, `You are invited to join ${teamLabel(p.teamName, p.teamId)}`, [
    `${p.inviterEmail} invites you to join the team ${teamLabel(p.teamName, p.teamId)} as ${roleName(p.role)}.`,
    'Sign in with this e-mail address to accept:',
    { label: 'Accept invitation', href: p.acceptLink },
    'Not interested? Decline the invitation:',
    { label: 'Decline invitation', href: p.declineLink },
    'The links work once and expire in 7 days.',
  ]);
}

/** E-mail change: sent to the NEW address, so only its owner can confirm it. */
export function changeEmailMail(frame: MailFrame, p: { newEmail: string; confirmLink: string }): MailContent {
  return compose(frame, 'Confirm your new e-mail address', [
    `Someone (probably you) asked to change the e-mail address of a ${PRODUCT} account to ${p.newEmail}.`,
    { label: 'Confirm new e-mail', href: p.confirmLink },
    'The link works once and expires in 24 hours. If you did not ask for it, ignore this mail.',
  ]);
}

/** Account deletion: confirming deletes the account for good. */
export function accountDeletionMail(frame: MailFrame, p: { confirmLink: string }): MailContent {
  return compose(frame, 'Confirm the deletion of your account', [
    'We received a request to delete your account. Your memberships end, teams where you are the only member are deleted, and you are signed out everywhere.',
    { label: 'Delete my account', href: p.confirmLink },
    'This cannot be undone. The link works once and expires in 24 hours. Changed your mind? Ignore this mail or revoke the request in your profile settings.',
  ]);
}

interface TeamLinkFacts {
  teamName: string;
  teamId: number;
  confirmLink: string;
  cancelLink: string;
}

/** Team deletion: confirm deletes the team for every member; cancel unlocks it. */
export function teamDeletionMail(frame: MailFrame, p: TeamLinkFacts): MailContent {
  return compose(frame, `Confirm the deletion of the team ${teamLabel(p.teamName, p.teamId)}`, [
    `The team ${teamLabel(p.teamName, p.teamId)} is locked for deletion. Until you confirm, its services stay active but nobody can edit its settings, invite or change roles.`,
    { label: 'Delete the team', href: p.confirmLink },
    'Changed your mind? Cancel the deletion:',
    { label: 'Cancel deletion', href: p.cancelLink },
    'The links work once and expire in 24 hours.',
  ]);
}

/** Team suspension (supervisors): confirm makes the team view-only for its members. */
export function teamSuspensionMail(frame: MailFrame, p: TeamLinkFacts): MailContent {
  return compose(frame, `Confirm the suspension of the team ${teamLabel(p.teamName, p.teamId)}`, [
    `You asked to suspend the team ${teamLabel(p.teamName, p.teamId)}. Once confirmed, the service stops for all its domains and keys and the team becomes view-only.`,
    { label: 'Suspend the team', href: p.confirmLink },
    'Changed your mind? Revoke the suspension:',
    { label: 'Revoke suspension', href: p.cancelLink },
    'The links work once and expire in 24 hours.',
  ]);
}

/** What an alert's notices say: the figures already in words (value and threshold in the metric's unit,
 *  times in UTC). */
export interface AlertMailFacts {
  teamName: string;
  teamId: number;
  alertName: string;
  /** The metric's name as shown ("P2P share"). */
  metricLabel: string;
  /** "above 40%" / "below 40%". */
  condition: string;
  windowMinutes: number;
  /** null: the window had no value (no traffic, or fewer viewers than the alert asks for). */
  value: string | null;
  openedAt: string;
  statisticsLink: string;
}

const windowWords = (n: number) => (n === 1 ? 'the last minute' : `the last ${n} minutes`);
const measured = (p: AlertMailFacts) =>
  p.value === null
    ? `${p.metricLabel} had no value over ${windowWords(p.windowMinutes)} (no traffic, or fewer viewers than the alert asks for)`
    : `${p.metricLabel} was ${p.value} over ${windowWords(p.windowMinutes)}`;
const ALERT_FOOTER =
  'You receive this e-mail because the alert notifies your role in the team. Admins and Key masters change its recipients on the Alerts screen.';

/** An alert's condition began to hold: sent once per incident. */
export function alertOpenedMail(frame: MailFrame, p: AlertMailFacts): MailContent {
  return compose(frame, MSG_ALERTS.mailOpenedSubject(p.alertName), [
    `The alert "${p.alertName}" of the team ${teamLabel(p.teamName, p.teamId)} is firing: ${measured(p)}, ${p.condition}.`,
    `It opened at ${p.openedAt}. You will get one more e-mail when it resolves.`,
    { label: 'Open statistics', href: p.statisticsLink },
    ALERT_FOOTER,
  ]);
}

/** An alert's condition stopped holding: sent once per incident. */
export function alertResolvedMail(frame: MailFrame, p: AlertMailFacts & { resolvedAt: string }): MailContent {
  return compose(frame, MSG_ALERTS.mailResolvedSubject(p.alertName), [
    `The alert "${p.alertName}" of the team ${teamLabel(p.teamName, p.teamId)} is resolved: ${measured(p)}, no longer ${p.condition}.`,
    `It was firing from ${p.openedAt} to ${p.resolvedAt}.`,
    { label: 'Open statistics', href: p.statisticsLink },
    ALERT_FOOTER,
  ]);
}
