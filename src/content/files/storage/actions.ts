import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { requireFullMembership } from '../../../access/membership.js';
import { roleAtLeast } from '../../../access/roles.js';
import { ApiError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import { InFlight } from '../../../core/in-flight.js';
import { perContext, type Context } from '../../../context.js';
import { imageDimensions, sniffContentType } from '../image.js';
import {
  completeUpload,
  deleteExpiredUploads,
  insertUpload,
  insertUploadPart,
  lockPendingUpload,
  takeCompletedUpload,
} from './queries.js';
import type { GenerateStorageUploadInput, StorageUploadUrlBody } from './schemas.js';

/**
 * How long an upload waits for its bytes and then for the write that takes
 * it: under the day for which unreferenced bytes are kept (spaces/purge.ts).
 */
const UPLOAD_TTL_MS = 23 * 3_600_000;
/** Bytes of one stored part: what the PUT holds in memory at once, besides the chunk being read. */
const PART_BYTES = 1024 * 1024;
const UPLOAD_REFUSED = 'upload files to the organization';

function signatureOf(context: Context, uploadId: string): string {
  const key = createHmac('sha256', context.serviceSecret).update('storage-upload-urls').digest();
  return createHmac('sha256', key).update(uploadId).digest('base64url');
}

function signatureIsRight(context: Context, uploadId: string, signature: string): boolean {
  const expected = Buffer.from(signatureOf(context, uploadId));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Where an upload's bytes are PUT; a content write names the same URL as a file's `url`. */
function uploadUrl(context: Context, uploadId: string): string {
  return `${context.urls.service('storage', 'uploads', uploadId)}?signature=${signatureOf(context, uploadId)}`;
}

/** The upload a URL of this service names (`…/storage/uploads/<id>`, signed or not), or undefined. */
export function uploadIdOf(context: Context, url: string): string | undefined {
  const prefix = `${context.urls.service('storage', 'uploads')}/`;
  if (!url.startsWith(prefix)) return undefined;
  const id = url.slice(prefix.length).split(/[?#]/, 1)[0]!;
  return id !== '' && !id.includes('/') ? decodeURIComponent(id) : undefined;
}

function tooLarge(limit: number, what: string): ApiError {
  // The rest of the body is not read: the connection closes with the answer.
  return new ApiError(413, `${what} is over the ${limit}-byte limit of one upload (STORAGE_UPLOAD_MAX_BYTES)`, {
    connection: 'close',
  });
}

/**
 * GitBook's generateStorageUploadURL: announces a file and answers the signed
 * URL its bytes go to. Needs the edit role in the organization (the role that
 * writes content); a guest or a reader is refused, a non-member finds no organization.
 */
export async function createStorageUpload(
  context: Context,
  userId: string,
  organizationId: string,
  body: GenerateStorageUploadInput,
): Promise<StorageUploadUrlBody> {
  const role = await requireFullMembership(context.db, organizationId, userId, UPLOAD_REFUSED);
  if (!roleAtLeast(role, 'edit')) throw new ForbiddenError(`The edit role is needed to ${UPLOAD_REFUSED}`);
  const limit = context.config.storageUploadMaxBytes;
  if (body.file.size > limit) throw tooLarge(limit, `body/file/size (${body.file.size} bytes)`);
  const now = context.clock.now();
  await deleteExpiredUploads(context.db, organizationId, now);
  const id = newId();
  await insertUpload(context.db, {
    id,
    organizationId,
    kind: body.kind,
    name: body.file.name,
    contentType: body.file.type,
    declaredSize: body.file.size,
    createdBy: userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS),
  });
  return { object: 'storage-signed-url', url: uploadUrl(context, id), key: id };
}

export interface ReceivedUpload {
  object: 'storage-upload';
  key: string;
  name: string;
  contentType: string;
  size: number;
}

/** PUTs streaming at once in this instance: each holds a database connection until its last byte. */
const uploadSlots = perContext(() => new InFlight({ perUser: 2, perOrganization: 4, total: 8 }, 'uploads'));

/**
 * The PUT of an upload's bytes, streamed into the database a part at a time
 * in one transaction: past the limit or the announced size (413), short of
 * it (400), or cut off, the transaction rolls back and nothing is stored.
 * The signature is the permission, as for a download.
 */
export async function receiveUploadBytes(
  context: Context,
  uploadId: string,
  signature: string,
  body: Readable | undefined,
  contentLength: number | undefined,
): Promise<ReceivedUpload> {
  const unknown = new NotFoundError('This upload URL is unknown or has expired; ask for a new one');
  if (!signatureIsRight(context, uploadId, signature)) throw unknown;
  const limit = context.config.storageUploadMaxBytes;
  const pending = await context.db
    .selectFrom('storage_uploads')
    .select(['organization_id', 'created_by', 'declared_size'])
    .where('id', '=', uploadId)
    .executeTakeFirst();
  if (!pending) throw unknown;
  const allowed = Math.min(limit, pending.declared_size);
  if (contentLength !== undefined && contentLength > allowed) {
    throw contentLength > limit
      ? tooLarge(limit, `The body (${contentLength} bytes)`)
      : tooLarge(allowed, `The body (${contentLength} bytes, more than the ${allowed} announced)`);
  }
  const holder = { userId: pending.created_by, organizationId: pending.organization_id };
  return uploadSlots(context).run(holder, () =>
    context.db.transaction().execute(async (tx) => {
      const now = context.clock.now();
      const upload = await lockPendingUpload(tx, uploadId, now);
      if (!upload) throw unknown;
      if (upload.uploaded_at !== null) throw new ConflictError('This upload already has its bytes; ask for a new URL');
      const hash = createHash('sha256');
      let size = 0;
      let seq = 0;
      let part: Buffer[] = [];
      let partBytes = 0;
      let head: Buffer | undefined;
      const flush = async () => {
        const bytes = Buffer.concat(part, partBytes);
        head ??= bytes;
        await insertUploadPart(tx, uploadId, seq++, bytes);
        part = [];
        partBytes = 0;
      };
      // Leaving the loop early (a refusal) must not destroy the request: its answer still goes out on that socket.
      for await (const chunk of body?.iterator({ destroyOnReturn: false }) ?? []) {
        const bytes = chunk as Buffer;
        size += bytes.length;
        if (size > allowed) {
          throw size > limit
            ? tooLarge(limit, 'The body')
            : tooLarge(allowed, `The body (more than the ${allowed} bytes announced)`);
        }
        hash.update(bytes);
        part.push(bytes);
        partBytes += bytes.length;
        if (partBytes >= PART_BYTES) await flush();
      }
      if (partBytes > 0 || seq === 0) await flush();
      if (size !== upload.declared_size) {
        throw new BadRequestError(`The body ended after ${size} of the ${upload.declared_size} bytes announced`);
      }
      // An image's signature and size are in its first bytes: the first part is enough to read them.
      const dimensions = head ? imageDimensions(head) : undefined;
      const contentType =
        upload.content_type === 'application/octet-stream' && head
          ? sniffContentType(head, upload.name)
          : upload.content_type;
      await completeUpload(tx, {
        uploadId,
        organizationId: upload.organization_id,
        sha256: hash.digest('hex'),
        size,
        contentType,
        width: dimensions?.width ?? null,
        height: dimensions?.height ?? null,
        now,
      });
      return { object: 'storage-upload' as const, key: uploadId, name: upload.name, contentType, size };
    }),
  );
}

/** A completed upload's file, for a content write of the organization; 400 when there is none to take. */
export async function takeUpload(context: Context, organizationId: string, uploadId: string, field: string) {
  const upload = await takeCompletedUpload(context.db, organizationId, uploadId, context.clock.now());
  if (!upload) {
    throw new BadRequestError(
      `${field}: no completed upload ${uploadId} in this organization (an upload is taken within a day of being asked for)`,
    );
  }
  return upload;
}
