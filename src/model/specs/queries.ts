import type { Db } from '../../db/database.js';
import type { SpecOutline } from './outline.js';

export type { SpecOutline, SpecOutlineOperation, SpecOutlineTag } from './outline.js';

/** A spec as another domain sees it: by slug, with its newest version's outline. */
export interface SpecWithOutline {
  spec: { id: string; slug: string; lastVersion: string; visibility: 'private' | 'public' };
  outline: SpecOutline;
}

/**
 * The spec of the organization with this slug and the outline of its newest
 * version; undefined when there is no such spec or it has no version yet.
 * Who may see it is the caller's to decide.
 */
export async function findSpecOutline(
  db: Db,
  organizationId: string,
  slug: string,
): Promise<SpecWithOutline | undefined> {
  const row = await db
    .selectFrom('openapi_specs as spec')
    .innerJoin('openapi_spec_versions as version', (join) =>
      join
        .onRef('version.id', '=', 'spec.last_version_id')
        .onRef('version.organization_id', '=', 'spec.organization_id'),
    )
    .select(['spec.id', 'spec.slug', 'spec.visibility', 'version.id as version_id', 'version.outline'])
    .where('spec.organization_id', '=', organizationId)
    .where('spec.slug', '=', slug)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    spec: { id: row.id, slug: row.slug, lastVersion: row.version_id, visibility: row.visibility },
    outline: row.outline as SpecOutline,
  };
}
