import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Context } from '../../context.js';
import { BadRequestError, ConflictError, UnauthorizedError } from '../../core/errors.js';
import { installationNotFound } from './actions.js';
import { findInstallation, type GitSyncInstallationRow } from './queries.js';
import { webhookSecretContext } from './remote.js';
import { queueInstallationSync } from './sync.js';

/**
 * A provider's push event, received at the installation's own webhook URL
 * and proven by the installation's secret: GitHub (and Gitea, Forgejo, which
 * send the same header) sign the body with HMAC-SHA256 in
 * `X-Hub-Signature-256`; GitLab sends the secret itself in `X-Gitlab-Token`.
 * A GitHub installation takes only the first, a GitLab one only the second,
 * a Git host's either. A push to the installation's branch queues an import
 * of it; anything else is answered and ignored.
 */
export type WebhookOutcome = 'queued' | 'ignored';

const unsigned = () =>
  new UnauthorizedError('The webhook delivery is not signed with the installation’s secret; nothing was done');

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether the delivery proves the secret, by the means the installation's provider uses. */
export function signedWithSecret(
  provider: string,
  secret: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): boolean {
  const signature = headers['x-hub-signature-256'];
  if (provider !== 'gitlab' && typeof signature === 'string') {
    const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    return sameBytes(digest(signature.trim().toLowerCase()), digest(expected));
  }
  const token = headers['x-gitlab-token'];
  if (provider !== 'github' && typeof token === 'string') return sameBytes(digest(token), digest(secret));
  return false;
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** The event's name: GitHub's `push`, Gitea's and Forgejo's the same, GitLab's `Push Hook`. */
function eventOf(headers: IncomingHttpHeaders): string | undefined {
  return (
    header(headers, 'x-github-event') ??
    header(headers, 'x-gitea-event') ??
    header(headers, 'x-forgejo-event') ??
    header(headers, 'x-gitlab-event')
  );
}

/** The branch a push moved and its new tip; a deleted branch's tip is all zeros. */
function pushOf(body: Buffer): { ref: string; after: string | undefined } {
  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new BadRequestError('The push event is not JSON');
  }
  const { ref, after } = (typeof event === 'object' && event !== null ? event : {}) as Record<string, unknown>;
  if (typeof ref !== 'string') throw new BadRequestError('The push event names no ref');
  return { ref, after: typeof after === 'string' ? after : undefined };
}

export async function receiveWebhook(
  context: Context,
  installationId: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<WebhookOutcome> {
  const row: GitSyncInstallationRow | undefined = await findInstallation(context.db, installationId);
  if (!row) throw installationNotFound();
  const secret = context.keyring.open(row.webhook_secret_sealed, webhookSecretContext(row.id));
  if (!signedWithSecret(row.provider, secret, headers, body)) throw unsigned();
  const event = eventOf(headers);
  if (event !== 'push' && event !== 'Push Hook') return 'ignored';
  if (row.status !== 'active')
    throw new ConflictError(`The installation is ${row.status}: configure its repository and token first`);
  const push = pushOf(body);
  if (push.ref !== row.ref || (push.after !== undefined && /^0+$/.test(push.after))) return 'ignored';
  // An import of the branch already waiting reads the tip this push made when its turn comes.
  const queued = await queueInstallationSync(context, row, 'import', row.created_by);
  context.log.info({ installation: row.id, space: row.space_id, queued }, 'a Git Sync webhook reported a push');
  return 'queued';
}
