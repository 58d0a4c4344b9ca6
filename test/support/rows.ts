import type { Db } from '../../src/db/database.js';

/** Tables whose rows belong to one space, by their `space_id`. */
export type SpaceTable =
  | 'revisions'
  | 'tree_entries'
  | 'documents'
  | 'reusable_content_versions'
  | 'comments'
  | 'comment_replies'
  | 'comment_reactions'
  | 'change_requests'
  | 'change_request_reviewers'
  | 'change_request_reviews'
  | 'content_grants';

/** How many rows of `table` belong to the space: what a refused request must leave as it was. */
export async function rowsInSpace(db: Db, table: SpaceTable, spaceId: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('space_id', '=', spaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
