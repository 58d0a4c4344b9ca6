import type { Db } from '../../db/database.js';

/** A file version with its bytes, for a download. */
export async function findFileVersionWithBytes(db: Db, versionId: string) {
  return db
    .selectFrom('file_versions as f')
    .innerJoin('blobs as b', 'b.sha256', 'f.sha256')
    .select(['f.name', 'f.content_type', 'f.sha256', 'b.bytes'])
    .where('f.id', '=', versionId)
    .executeTakeFirst();
}
