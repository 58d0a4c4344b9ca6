import type { Db } from '../../db/database.js';

/** Whether the document was written in the space (in any of its revisions or change requests). */
export async function isDocumentOfSpace(
  db: Db,
  organizationId: string,
  spaceId: string,
  documentId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('documents')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .where('id', '=', documentId)
    .executeTakeFirst();
  return row !== undefined;
}
