import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** A page a write of the space's line changed: its new version, or null where the write removed it. */
export interface ChangedPage {
  itemId: string;
  versionId: string | null;
}

/**
 * Replaces the search rows of the pages a write of the space's line changed,
 * in the write's transaction: a row for each page (its title, headings,
 * description and text) and one for each section of its outline. Link
 * pages hold no text of their own, and pages marked `noIndex` ask to be left
 * out of search: neither is indexed. Nothing is parsed: the outline was taken
 * when the document was written.
 */
export async function reindexPages(
  tx: Db,
  place: { organizationId: string; spaceId: string },
  changes: readonly ChangedPage[],
): Promise<void> {
  if (changes.length === 0) return;
  await tx
    .deleteFrom('search_sections')
    .where('space_id', '=', place.spaceId)
    .where('page_id', '=', sql<string>`any(${changes.map((change) => change.itemId)}::text[])`)
    .execute();
  const versionIds = changes.flatMap((change) => (change.versionId ? [change.versionId] : []));
  if (versionIds.length === 0) return;
  await sql`
    insert into search_sections (organization_id, space_id, page_id, ord, anchor, title, headings, body, language)
    select pv.organization_id, pv.space_id, pv.page_id, 0, null, pv.title,
      coalesce((select string_agg(section->>'title', E'\n') from jsonb_array_elements(d.outline) section), ''),
      concat_ws(E'\n', pv.description,
        (select string_agg(section->>'text', E'\n') from jsonb_array_elements(d.outline) section)),
      coalesce(d.language, 'quire_simple')::regconfig
    from page_versions pv left join documents d on d.id = pv.document_id
    where pv.organization_id = ${place.organizationId} and pv.id = any(${versionIds}::text[]) and pv.type <> 'link' and not pv.no_index
    union all
    select pv.organization_id, pv.space_id, pv.page_id, section.ord::integer, section.value->>'anchor',
      section.value->>'title', '', section.value->>'text', d.language::regconfig
    from page_versions pv
      join documents d on d.id = pv.document_id
      cross join lateral jsonb_array_elements(d.outline) with ordinality as section(value, ord)
    where pv.organization_id = ${place.organizationId} and pv.id = any(${versionIds}::text[])
      and pv.type <> 'link' and not pv.no_index and d.outline is not null`.execute(tx);
}
