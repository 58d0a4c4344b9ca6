import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { keysetAfter, paginate, TOTAL_COUNT, type Page, type PageRequest } from '../core/pagination.js';
import { containsPattern } from '../core/text.js';
import { requireOrganizationAdmin } from '../access/membership.js';
import type { Context } from '../context.js';
import { presentIntegrations } from './actions.js';
import { selectInstallation } from './installation-queries.js';
import { findIntegrationsByIds } from './platform/listing-queries.js';
import { presentInstallation } from './present.js';
import type { Integration, IntegrationInstallation, ListOrganizationInstallationsQuery } from './schemas.js';

/** The organization's installations (`ii`), those of integrations whose name or title holds `pattern` when given. */
function installationsIn(db: Db, organizationId: string, pattern: string | undefined) {
  let query = selectInstallation(db)
    .innerJoin('integrations as i', 'i.id', 'ii.integration_id')
    .where('ii.organization_id', '=', organizationId);
  if (pattern !== undefined) {
    query = query.where((eb) =>
      eb.or([eb(sql<string>`lower(i.name)`, 'like', pattern), eb(sql<string>`lower(i.title)`, 'like', pattern)]),
    );
  }
  return query;
}

async function pageOfInstallations(db: Db, page: PageRequest, organizationId: string, pattern: string | undefined) {
  let query = installationsIn(db, organizationId, pattern).select(() =>
    installationsIn(db, organizationId, pattern)
      .clearSelect()
      .select(sql<string>`count(*)`.as('n'))
      .as(TOTAL_COUNT),
  );
  const after = keysetAfter(page, 'ii.created_at', 'ii.id');
  if (after) query = query.where(after);
  return query
    .orderBy('ii.created_at', page.order)
    .orderBy('ii.id', page.order)
    .limit(page.limit + 1)
    .execute();
}

async function countOfInstallations(db: Db, organizationId: string, pattern: string | undefined) {
  const { n } = await installationsIn(db, organizationId, pattern)
    .clearSelect()
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Every integration installed on the organization, each with its
 * installation (admins of the organization: an installation holds its
 * configuration), newest installation first; `search` over the
 * integration's name and title.
 */
export async function listOrganizationInstallations(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListOrganizationInstallationsQuery,
): Promise<Page<{ integration: Integration; installation: IntegrationInstallation }>> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Listing the organization’s installations');
  const pattern = query.search === undefined ? undefined : containsPattern(query.search.toLowerCase());
  const page = context.cursors.request(`organization-installations:${organizationId}:${query.search ?? ''}`, query);
  const listed = await paginate(context.cursors, page, {
    rows: () => pageOfInstallations(context.db, page, organizationId, pattern),
    count: () => countOfInstallations(context.db, organizationId, pattern),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => row,
  });
  const integrations = await findIntegrationsByIds(context.db, [
    ...new Set(listed.items.map((row) => row.integration_id)),
  ]);
  const presented = await presentIntegrations(context, callerId, integrations);
  const byId = new Map(integrations.map((row, index) => [row.id, presented[index]!]));
  return {
    ...listed,
    items: listed.items.map((row) => {
      const integration = byId.get(row.integration_id)!;
      return { integration, installation: presentInstallation(row, integration.name, context.urls) };
    }),
  };
}
