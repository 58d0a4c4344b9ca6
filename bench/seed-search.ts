import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { systemClock } from '../src/core/clock.js';
import { createSpace } from '../src/spaces/create.js';
import { seedContentSpace, type ContentShape, pageCount } from './seed-content.js';

/** 100 spaces of 1,000 pages: the 100,000 pages organization search spans. */
export const SEARCH_SPACES = 100;
export const SEARCH_SHAPE: ContentShape = { sections: 20, pagesPerSection: 50 };
export const SEARCH_PAGES = SEARCH_SPACES * pageCount(SEARCH_SHAPE);
/** A section title's word: a few pages of each space hold it, as a real query finds a few. */
export const SEARCH_QUERY = 'webhooks';

export interface SeededSearch {
  organizationId: string;
  spaceId: string;
  /** Bytes the index grew by per page merged, table and indexes together. */
  bytesPerPage: number;
}

const indexBytes = async (app: FastifyInstance) =>
  Number(
    (await sql<{ bytes: string }>`select pg_total_relation_size('search_sections') as bytes`.execute(app.context.db))
      .rows[0]!.bytes,
  );

/**
 * One space of 1,000 pages written through the API (each merge indexes its
 * pages), then 99 more spaces whose index rows are copies of its rows: the
 * index holds 100,000 pages, as 100 spaces of real pages would make it,
 * without writing 100,000 pages through the API first.
 */
export async function seedSearch(
  app: FastifyInstance,
  authorization: string,
  organizationId: string,
): Promise<SeededSearch> {
  const before = await indexBytes(app);
  const first = await seedContentSpace(app, authorization, organizationId, SEARCH_SHAPE, 'Search 0');
  const bytesPerPage = Math.round((await indexBytes(app)) - before) / first.pages;
  for (let i = 1; i < SEARCH_SPACES; i++) {
    const space = await createSpace(app.context.db, systemClock, {
      organizationId,
      parentId: null,
      title: `Search ${i}`,
      emoji: null,
      editMode: 'live',
      visibility: 'private',
    });
    await sql`
      insert into search_sections (organization_id, space_id, page_id, ord, anchor, title, headings, body, language)
      select organization_id, ${space.id}, page_id, ord, anchor, title, headings, body, language
      from search_sections where space_id = ${first.spaceId}`.execute(app.context.db);
  }
  return { organizationId, spaceId: first.spaceId, bytesPerPage };
}
