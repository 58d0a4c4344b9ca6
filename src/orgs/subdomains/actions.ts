import { NotFoundError } from '../../core/errors.js';
import type { Context } from '../../context.js';

export interface Subdomain {
  object: 'subdomain';
  subdomain: string;
  target: { type: 'organization'; organization: string };
  isActive: boolean;
}

/**
 * Who holds a subdomain: GitBook's `{subdomain}.gitbook.io` is an
 * organization's `hostname` here, one per organization and unique. It names
 * its organization's id and nothing else of it, to any signed-in caller (a
 * name already shows it is taken when one tries to claim it); a name nobody
 * holds is a 404. A held name is in use for as long as it is held.
 */
export async function getSubdomain(context: Context, subdomain: string): Promise<Subdomain> {
  const holder = await context.db
    .selectFrom('organizations')
    .select('id')
    .where('hostname', '=', subdomain)
    .executeTakeFirst();
  if (!holder) throw new NotFoundError('No organization holds this subdomain');
  return { object: 'subdomain', subdomain, target: { type: 'organization', organization: holder.id }, isActive: true };
}
