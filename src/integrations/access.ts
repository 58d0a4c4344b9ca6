import type { Role } from '../db/types.js';
import { ForbiddenError, NotFoundError } from '../core/errors.js';
import type { Context } from '../context.js';
import type { Membership } from '../orgs/present.js';
import { installationOfPrincipal } from '../access/installation-principal.js';
import { findIntegrationByName, isInstallationOf, type IntegrationWithCaller } from './queries.js';
import type { IntegrationVisibility } from './schemas.js';

/**
 * Who sees an integration. Public ones: anyone authenticated, in lists too.
 * Unlisted ones: anyone who names them, but only members of the owner
 * organization find them in lists. Private ones: members of the owner only.
 * "Members" here are those with a role: guests of the owner see what strangers see.
 */

export const membershipOf = (row: { caller_is_member: boolean; caller_role: Role | null }): Membership => ({
  isMember: row.caller_is_member,
  role: row.caller_is_member ? row.caller_role : null,
});

const isFullMember = (membership: Membership) => membership.isMember && membership.role !== null;
export const isAdmin = (membership: Membership) => membership.isMember && membership.role === 'admin';

export function canRead(visibility: IntegrationVisibility, owner: Membership): boolean {
  return visibility !== 'private' || isFullMember(owner);
}

export const integrationNotFound = () => new NotFoundError('No integration with this name is visible to you');

/** The integration and what the caller is to its owner, or a 404 when they may not see it. */
export async function findVisibleIntegration(
  context: Context,
  callerId: string,
  name: string,
): Promise<{ integration: IntegrationWithCaller; owner: Membership }> {
  const integration = await findIntegrationByName(context.db, name, callerId);
  if (!integration) throw integrationNotFound();
  const installationId = installationOfPrincipal(callerId);
  if (installationId !== undefined) {
    // An installation's token sees its own integration, whatever its visibility, and no other.
    if (!(await isInstallationOf(context.db, installationId, integration.id))) throw integrationNotFound();
    return { integration, owner: { isMember: false, role: null } };
  }
  const owner = membershipOf(integration);
  if (!canRead(integration.visibility, owner)) throw integrationNotFound();
  return { integration, owner };
}

/** As findVisibleIntegration, for a change only the owner organization's admins may make (403 for anyone else). */
export async function findIntegrationToManage(
  context: Context,
  callerId: string,
  name: string,
  action: string,
): Promise<{ integration: IntegrationWithCaller; owner: Membership }> {
  const found = await findVisibleIntegration(context, callerId, name);
  if (!isAdmin(found.owner)) {
    throw new ForbiddenError(`${action} needs the admin role in the organization that publishes the integration`);
  }
  return found;
}
