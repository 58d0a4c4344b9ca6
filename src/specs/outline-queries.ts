import type { Db } from '../db/database.js';
import type { SpecOutline } from './outline.js';

export type { SpecOutline, SpecOutlineOperation, SpecOutlineTag } from './outline.js';

/** A spec as another domain sees it: by slug, with its newest version's outline. */
export interface SpecWithOutline {
  spec: { id: string; slug: string; lastVersion: string; visibility: 'private' | 'public' };
  outline: SpecOutline;
}

/**
 * The organization's specs of these slugs that have a version, each with its
 * newest version's outline, by slug: one query for all the computed pages of
 * a read. A slug with no such spec, or whose spec has no version yet, is left
 * out. Who may see them is the caller's to decide.
 */
export async function findSpecOutlines(
  db: Db,
  organizationId: string,
  slugs: readonly string[],
): Promise<Map<string, SpecWithOutline>> {
  if (slugs.length === 0) return new Map();
  const rows = await db
    .selectFrom('openapi_specs as spec')
    .innerJoin('openapi_spec_versions as version', (join) =>
      join
        .onRef('version.id', '=', 'spec.last_version_id')
        .onRef('version.organization_id', '=', 'spec.organization_id'),
    )
    .select(['spec.id', 'spec.slug', 'spec.visibility', 'version.id as version_id', 'version.outline'])
    .where('spec.organization_id', '=', organizationId)
    .where('spec.slug', 'in', [...slugs])
    .execute();
  return new Map(
    rows.map((row) => [
      row.slug,
      {
        spec: { id: row.id, slug: row.slug, lastVersion: row.version_id, visibility: row.visibility },
        outline: row.outline as SpecOutline,
      },
    ]),
  );
}

/** The spec of the organization with this slug and its newest version's outline; undefined as findSpecOutlines leaves it out. */
export async function findSpecOutline(
  db: Db,
  organizationId: string,
  slug: string,
): Promise<SpecWithOutline | undefined> {
  return (await findSpecOutlines(db, organizationId, [slug])).get(slug);
}
