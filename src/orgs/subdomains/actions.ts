import { NotFoundError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { findMembership } from '../../access/membership.js';

export interface Subdomain {
  object: 'subdomain';
  subdomain: string;
  target: { type: 'organization'; organization: string };
  isActive: boolean;
}

const notHeld = () => new NotFoundError('No organization of yours holds this subdomain');

/**
 * Who holds a subdomain: GitBook's `{subdomain}.gitbook.io` is an
 * organization's `hostname` here, one per organization and unique. Only the
 * holder's members (guests too) are told: to anyone else a held name is the
 * 404 of a name nobody holds, so that no organization's id or existence
 * reaches outsiders. A held name is in use for as long as it is held.
 */
export async function getSubdomain(context: Context, userId: string, subdomain: string): Promise<Subdomain> {
  const holder = await context.db
    .selectFrom('organizations')
    .select('id')
    .where('hostname', '=', subdomain)
    .executeTakeFirst();
  if (!holder || !(await findMembership(context.db, holder.id, userId))) throw notHeld();
  return { object: 'subdomain', subdomain, target: { type: 'organization', organization: holder.id }, isActive: true };
}
