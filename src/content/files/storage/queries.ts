import { sql } from 'kysely';
import type { Db } from '../../../db/database.js';

export interface NewUpload {
  id: string;
  organizationId: string;
  kind: string;
  name: string;
  contentType: string;
  declaredSize: number;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertUpload(db: Db, upload: NewUpload): Promise<void> {
  await db
    .insertInto('storage_uploads')
    .values({
      id: upload.id,
      organization_id: upload.organizationId,
      kind: upload.kind,
      name: upload.name,
      content_type: upload.contentType,
      declared_size: upload.declaredSize,
      created_by: upload.createdBy,
      created_at: upload.createdAt,
      expires_at: upload.expiresAt,
    })
    .execute();
}

/** An organization's uploads past their time, completed or not: their bytes stay in blobs only if a file took them. */
export async function deleteExpiredUploads(db: Db, organizationId: string, now: Date): Promise<void> {
  await db
    .deleteFrom('storage_uploads')
    .where('organization_id', '=', organizationId)
    .where('expires_at', '<=', now)
    .execute();
}

/** An upload still waiting for its bytes, locked for the PUT that brings them; undefined when none is. */
export async function lockPendingUpload(tx: Db, uploadId: string, now: Date) {
  return tx
    .selectFrom('storage_uploads')
    .select(['id', 'organization_id', 'name', 'content_type', 'declared_size', 'created_by', 'uploaded_at'])
    .where('id', '=', uploadId)
    .where('expires_at', '>', now)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertUploadPart(tx: Db, uploadId: string, seq: number, bytes: Buffer): Promise<void> {
  await tx.insertInto('storage_upload_parts').values({ upload_id: uploadId, seq, bytes }).execute();
}

export interface CompletedUpload {
  uploadId: string;
  organizationId: string;
  sha256: string;
  size: number;
  contentType: string;
  width: number | null;
  height: number | null;
  now: Date;
}

/**
 * Joins an upload's parts into its blob in the database (the bytes never come
 * back to this process), drops the parts and marks the upload complete. A blob
 * already stored under the hash is kept, its sweep put off as for a new one.
 */
export async function completeUpload(tx: Db, done: CompletedUpload): Promise<void> {
  await sql`
    insert into blobs (sha256, size, bytes, created_at)
    select ${done.sha256}, ${done.size}, coalesce(string_agg(p.bytes, ''::bytea order by p.seq), ''::bytea), ${done.now}
    from storage_upload_parts p where p.upload_id = ${done.uploadId}
    on conflict (sha256) do update set created_at = greatest(blobs.created_at, excluded.created_at)
  `.execute(tx);
  await tx.deleteFrom('storage_upload_parts').where('upload_id', '=', done.uploadId).execute();
  await tx
    .updateTable('storage_uploads')
    .set({
      sha256: done.sha256,
      size: done.size,
      content_type: done.contentType,
      width: done.width,
      height: done.height,
      uploaded_at: done.now,
    })
    .where('id', '=', done.uploadId)
    .where('organization_id', '=', done.organizationId)
    .execute();
}

/**
 * A completed upload of the organization that a content write may still
 * take, its blob's sweep put off from now so that the bytes outlast the write.
 */
export async function takeCompletedUpload(db: Db, organizationId: string, uploadId: string, now: Date) {
  const upload = await db
    .selectFrom('storage_uploads')
    .select(['id', 'name', 'content_type', 'sha256', 'size', 'width', 'height'])
    .where('id', '=', uploadId)
    .where('organization_id', '=', organizationId)
    .where('uploaded_at', 'is not', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!upload?.sha256 || upload.size === null) return undefined;
  const kept = await db
    .updateTable('blobs')
    .set({ created_at: sql<Date>`greatest(created_at, ${now})` })
    .where('sha256', '=', upload.sha256)
    .executeTakeFirst();
  if (kept.numUpdatedRows === 0n) return undefined;
  return { ...upload, sha256: upload.sha256, size: upload.size };
}
