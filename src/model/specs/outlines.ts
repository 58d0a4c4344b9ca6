import type { Db } from '../../db/database.js';
import type { ResolvedSpec } from '../content/computed.js';
import type { SpecOutline } from './outline.js';

/**
 * The organization's specs of these slugs that have a version, each with its
 * newest version's outline: one query for all the computed pages of a read.
 */
export async function findSpecOutlines(
  db: Db,
  organizationId: string,
  slugs: readonly string[],
): Promise<Map<string, ResolvedSpec>> {
  if (slugs.length === 0) return new Map();
  const rows = await db
    .selectFrom('openapi_specs as spec')
    .innerJoin('openapi_spec_versions as version', (join) =>
      join
        .onRef('version.id', '=', 'spec.last_version_id')
        .onRef('version.organization_id', '=', 'spec.organization_id'),
    )
    .select(['spec.id', 'spec.slug', 'version.id as version_id', 'version.outline'])
    .where('spec.organization_id', '=', organizationId)
    .where('spec.slug', 'in', [...slugs])
    .execute();
  return new Map(
    rows.map((row) => [
      row.slug,
      { id: row.id, slug: row.slug, lastVersion: row.version_id, outline: row.outline as SpecOutline },
    ]),
  );
}
