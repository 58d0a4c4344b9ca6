import type { Mail } from '../core/mailer.js';
import { escapeHtml } from '../document/html-tag.js';

export interface InvitationMailFields {
  to: string;
  organizationTitle: string;
  inviterName: string;
  role: string | null;
  acceptUrl: string;
  expiresAt: Date;
}

/** The invitation e-mail: who invites whom where, and the accept link, in plain text and simple HTML. */
export function invitationMail(fields: InvitationMailFields): Mail {
  const role = fields.role ?? 'guest';
  const until = fields.expiresAt.toISOString().slice(0, 10);
  const text = [
    `${fields.inviterName} invites you to join ${fields.organizationTitle} on Quire as ${role}.`,
    '',
    'To see the invitation, open:',
    fields.acceptUrl,
    '',
    `Accept it with a POST to the same address with its secret (see the API documentation), before ${until}.`,
    'If you already have an account with this address, accept it with your own API token.',
    '',
    'If you did not expect this invitation, ignore this message: nothing happens until it is accepted.',
  ].join('\n');
  const url = escapeHtml(fields.acceptUrl);
  const html = [
    '<!doctype html><html><body>',
    `<p>${escapeHtml(fields.inviterName)} invites you to join <strong>${escapeHtml(fields.organizationTitle)}</strong> on Quire as ${escapeHtml(role)}.</p>`,
    `<p><a href="${url}">${url}</a></p>`,
    `<p>The invitation can be accepted until ${until}. If you already have an account with this address, accept it with your own API token.</p>`,
    '<p>If you did not expect this invitation, ignore this message: nothing happens until it is accepted.</p>',
    '</body></html>',
  ].join('\n');
  return {
    to: fields.to,
    subject: `${fields.inviterName} invites you to ${fields.organizationTitle} on Quire`,
    text,
    html,
  };
}
