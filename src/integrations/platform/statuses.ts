import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { paginate, type Page } from '../../core/pagination.js';
import type { Caller } from '../../access/auth.js';
import { requireFullMembership } from '../../access/membership.js';
import type { Context } from '../../context.js';
import { findVisibleIntegration } from '../access.js';
import { presentIntegrations } from '../actions.js';
import { findIntegrationsByIds } from './listing-queries.js';
import type { InstalledIntegrationTarget, ListInstallationStatusesQuery } from './schemas.js';
import type { Integration } from '../schemas.js';
import {
  countInstallationStatuses,
  findInstallationStatus,
  listInstallationStatuses,
  type InstallationStatusRow,
  type StatusFilters,
} from './status-queries.js';

type Status = 'active' | 'pending' | 'paused';

export interface InstalledIntegration {
  status: Status;
  integration: Integration;
  target: InstalledIntegrationTarget;
}

const READ_REFUSED = 'read the organization’s integrations';

/** Whether the integration is installed on the organization, and its installation's status; 404 when it is not. */
export async function getOrganizationIntegrationStatus(
  context: Context,
  callerId: string,
  organizationId: string,
  integrationName: string,
): Promise<{ status: Status }> {
  await requireFullMembership(context.db, organizationId, callerId, READ_REFUSED);
  const { integration } = await findVisibleIntegration(context, callerId, integrationName);
  const status = await findInstallationStatus(context.db, organizationId, integration.id);
  if (!status) throw new NotFoundError('The integration is not installed on this organization');
  return { status };
}

/** The filters of a query: `space` only with target=space, `site` only with target=site. */
function statusFilters(query: ListInstallationStatusesQuery, caller: Caller): StatusFilters {
  const target = query.target ?? 'organization';
  if (query.space !== undefined && target !== 'space') {
    throw new BadRequestError('querystring/space is only valid with target=space');
  }
  if (query.site !== undefined && target !== 'site') {
    throw new BadRequestError('querystring/site is only valid with target=site');
  }
  return { target, spaceId: query.space, siteId: query.site, installationId: caller.installation?.installationId };
}

function targetOf(row: InstallationStatusRow, target: StatusFilters['target']): InstalledIntegrationTarget {
  if (target === 'space') return { type: 'space', spaceId: row.target_id };
  if (target === 'site') return { type: 'site', siteId: row.target_id };
  return { type: 'organization', organizationId: row.target_id };
}

/**
 * The organization's installations, with their status and target: on the
 * organization (default), its spaces or its sites. Its members with a role
 * read them; an installation's own token, its own.
 */
export async function listOrganizationIntegrationsStatus(
  context: Context,
  caller: Caller,
  organizationId: string,
  query: ListInstallationStatusesQuery,
): Promise<Page<InstalledIntegration>> {
  const filters = statusFilters(query, caller);
  if (!caller.installation) await requireFullMembership(context.db, organizationId, caller.userId, READ_REFUSED);
  const { target, spaceId, siteId, installationId } = filters;
  const list = `integration-statuses:${organizationId}:${JSON.stringify([target, spaceId, siteId, installationId])}`;
  const page = context.cursors.request(list, query);
  const listed = await paginate(context.cursors, page, {
    rows: () => listInstallationStatuses(context.db, page, organizationId, filters),
    count: () => countInstallationStatuses(context.db, organizationId, filters),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.key }),
    toItem: (row) => row,
  });
  const rows = await findIntegrationsByIds(context.db, [...new Set(listed.items.map((row) => row.integration_id))]);
  const presented = await presentIntegrations(context, caller.userId, rows);
  const byId = new Map(rows.map((row, index) => [row.id, presented[index]!]));
  return {
    ...listed,
    items: listed.items.map((row) => ({
      status: row.status,
      integration: byId.get(row.integration_id)!,
      target: targetOf(row, target),
    })),
  };
}
