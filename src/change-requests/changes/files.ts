import { createHash } from 'node:crypto';
import { ApiError, BadRequestError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { OutboundError, type OutboundFetcher } from '../../core/outbound.js';
import { imageDimensions, sniffContentType } from '../../content/files/image.js';
import { MAX_FILE_BYTES, type ContentChange, type InsertFiles } from '../schemas.js';

/** A file of an `insert_files` change, with its bytes in hand and its id chosen. */
export interface PreparedFile {
  fileId: string;
  ref: string | undefined;
  name: string;
  contentType: string;
  /** The bytes to store; empty for an upload's, already stored under `sha256`. */
  bytes: Buffer;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(text: string, field: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) throw new BadRequestError(`${field} is not valid base64`);
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > MAX_FILE_BYTES)
    throw new BadRequestError(`${field} is over the 1 MiB limit of an inline file; give a url instead`);
  return bytes;
}

const mediaType = (header: string | null) => header?.split(';')[0]?.trim().toLowerCase() || undefined;

type FileInput = InsertFiles['files'][number];

/**
 * A file of a completed upload (content/files/storage), for a `url` that is
 * one of this service's upload URLs; undefined for any other URL.
 */
export type UploadTaker = (url: string, field: string) => Promise<StoredUpload | undefined>;

export interface StoredUpload {
  contentType: string;
  sha256: string;
  size: number;
  width: number | null;
  height: number | null;
}

/** FILE_BATCH_MAX_BYTES when the configuration names none. */
export const DEFAULT_FILE_BATCH_MAX_BYTES = 64 * 1024 * 1024;

/** Files of one batch fetched at once: enough to overlap the network's waits, few enough to bound what is in flight. */
const FETCH_LANES = 4;

/** The bounds of one batch's files: the batch's total (FILE_BATCH_MAX_BYTES) and one fetched file's (OUTBOUND_MAX_BYTES). */
export interface FileBatchLimits {
  maxBatchBytes: number;
  maxFileBytes: number;
}

function batchTooLarge(limit: number): ApiError {
  return new ApiError(
    413,
    `The files of this batch are over the ${limit}-byte limit of one write (FILE_BATCH_MAX_BYTES); ` +
      'send them in several writes',
  );
}

/**
 * The bytes a batch's files have used of its limit. A fetch may read at most
 * what is left when it starts, so the fetches in flight together can pass the
 * limit by no more than what they read before the first of them ends.
 */
class BatchBytes {
  private used = 0;
  constructor(private readonly limits: FileBatchLimits) {}

  /** What the next fetch may read: a file's own limit, or what the batch has left. */
  get nextFetchLimit(): number {
    return Math.max(0, Math.min(this.limits.maxFileBytes, this.limits.maxBatchBytes - this.used));
  }

  add(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limits.maxBatchBytes) throw batchTooLarge(this.limits.maxBatchBytes);
  }
}

async function fetchFile(fetcher: OutboundFetcher, url: string, budget: BatchBytes, limits: FileBatchLimits) {
  const maxBytes = budget.nextFetchLimit;
  if (maxBytes === 0) throw batchTooLarge(limits.maxBatchBytes);
  try {
    return await fetcher.fetch(url, { maxBytes });
  } catch (error) {
    // Cut short by what the batch had left, not by a file's own limit.
    if (error instanceof OutboundError && error.failure === 'too-large' && maxBytes < limits.maxFileBytes) {
      throw batchTooLarge(limits.maxBatchBytes);
    }
    throw error;
  }
}

async function prepareOne(
  fetcher: OutboundFetcher,
  file: FileInput,
  field: string,
  budget: BatchBytes,
  limits: FileBatchLimits,
  takeUpload: UploadTaker | undefined,
): Promise<PreparedFile> {
  let bytes: Buffer;
  let announcedType: string | undefined;
  const upload = 'url' in file ? await takeUpload?.(file.url, `${field}/url`) : undefined;
  if (upload) {
    // Its bytes are in the database already: neither read back nor counted against the batch.
    const { contentType, sha256, size, width, height } = upload;
    return {
      fileId: newId(),
      ref: file.ref,
      name: file.name,
      contentType: file.contentType ?? contentType,
      bytes: Buffer.alloc(0),
      size,
      sha256,
      width,
      height,
    };
  }
  if ('base64' in file) {
    bytes = decodeBase64(file.base64, `${field}/base64`);
  } else {
    const response = await fetchFile(fetcher, file.url, budget, limits);
    if (response.status < 200 || response.status > 299) {
      throw new BadRequestError(`${field}/url answered with status ${response.status}; the file could not be fetched`);
    }
    bytes = response.body;
    announcedType = mediaType(response.contentType);
  }
  budget.add(bytes.length);
  // Without a type given or served, the bytes say it (an image's signature) or else the name's extension.
  return preparedFile(bytes, {
    ref: file.ref,
    name: file.name,
    contentType:
      file.contentType ??
      (announcedType && announcedType !== 'application/octet-stream'
        ? announcedType
        : sniffContentType(bytes, file.name)),
  });
}

/** A file of the batch from its bytes: its new id, its hash, and an image's dimensions. */
export function preparedFile(
  bytes: Buffer,
  fields: { ref: string | undefined; name: string; contentType: string },
): PreparedFile {
  const dimensions = imageDimensions(bytes);
  return {
    fileId: newId(),
    ...fields,
    bytes,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    width: dimensions?.width ?? null,
    height: dimensions?.height ?? null,
  };
}

/**
 * Decodes or fetches every file of the batch before any database work, so
 * that no transaction waits on the network. Keyed by the change's index.
 * Fetches run a few at a time, and the batch's files together stay within
 * `limits.maxBatchBytes`: past it the batch is refused (413) before anything
 * is written, and no further file is fetched. A URL of an upload is taken
 * from the organization's storage, not fetched.
 */
export async function prepareFiles(
  fetcher: OutboundFetcher,
  changes: readonly ContentChange[],
  limits: FileBatchLimits,
  takeUpload?: UploadTaker,
): Promise<Map<number, PreparedFile[]>> {
  const prepared = new Map<number, PreparedFile[]>();
  const work: Array<{ file: FileInput; field: string; into: PreparedFile[]; at: number }> = [];
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    const files: PreparedFile[] = [];
    prepared.set(index, files);
    for (const [fileIndex, file] of change.files.entries()) {
      work.push({ file, field: `body/changes/${index}/files/${fileIndex}`, into: files, at: fileIndex });
    }
  }
  const budget = new BatchBytes(limits);
  let next = 0;
  let failure: Error | undefined;
  const lane = async () => {
    while (failure === undefined && next < work.length) {
      const item = work[next++]!;
      try {
        item.into[item.at] = await prepareOne(fetcher, item.file, item.field, budget, limits, takeUpload);
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_LANES, work.length) }, lane));
  if (failure !== undefined) throw failure;
  return prepared;
}
