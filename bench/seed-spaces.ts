import { generateNKeysBetween } from 'fractional-indexing';
import type { Cursors } from '../src/core/pagination.js';
import { newId, randomString } from '../src/core/ids.js';
import type { Db } from '../src/db/database.js';

export interface SeededSpaces {
  /** A space of the big organization. */
  spaceId: string;
  /** A collection of that organization holding `spacesInCollection` of its spaces. */
  collectionId: string;
  /** The `page` cursor of GET /v1/orgs/{id}/spaces that starts `deepPageOffset` items in. */
  deepPage: string;
}

export const SPACES_IN_BIG_ORGANIZATION = 20_000;
export const SPACES_IN_COLLECTION = 200;
export const DEEP_PAGE_OFFSET = 19_000;
const BATCH = 1_000;

/**
 * Gives an organization 20,000 spaces, 200 of them in one collection, in
 * batched inserts. Creation times are distinct and spread, as in real data.
 */
export async function seedSpaces(db: Db, organizationId: string, cursors: Cursors): Promise<SeededSpaces> {
  const collectionId = newId();
  const start = Date.now() - 365 * 86_400_000;
  await db
    .insertInto('collections')
    .values({
      id: collectionId,
      organization_id: organizationId,
      parent_id: null,
      title: 'Bench collection',
      description: null,
      default_level: 'inherit',
    })
    .execute();
  // Sibling positions in creation order; the collection comes first at the top level.
  const positions = generateNKeysBetween('a0', null, SPACES_IN_BIG_ORGANIZATION);
  const rows = Array.from({ length: SPACES_IN_BIG_ORGANIZATION }, (_, i) => {
    const createdAt = new Date(start + i * 1_000);
    const inCollection = i < SPACES_IN_COLLECTION;
    return {
      id: newId(),
      organization_id: organizationId,
      parent_id: inCollection ? collectionId : null,
      title: `Space ${i}`,
      emoji: null,
      share_key: randomString(32),
      revision_id: newId(),
      position: positions[i]!,
      created_at: createdAt,
      updated_at: createdAt,
    };
  });
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    await db.insertInto('spaces').values(batch).execute();
    const initialRevisions = batch.map((space) => ({
      id: space.revision_id,
      organization_id: organizationId,
      space_id: space.id,
      seq: 0,
      created_at: space.created_at,
    }));
    await db.insertInto('revisions').values(initialRevisions).execute();
  }

  // The list is newest first: the deep page starts after the item at DEEP_PAGE_OFFSET - 1 in that order.
  const newestFirst = [...rows].reverse();
  const last = newestFirst[DEEP_PAGE_OFFSET - 1]!;
  return {
    spaceId: rows[rows.length - 1]!.id,
    collectionId,
    deepPage: cursors.encode(`spaces:${organizationId}`, 'desc', { createdAt: last.created_at, id: last.id }),
  };
}
