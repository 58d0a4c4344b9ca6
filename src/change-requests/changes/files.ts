import { createHash } from 'node:crypto';
import { BadRequestError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { OutboundFetcher } from '../../core/outbound.js';
import { imageDimensions, sniffContentType } from '../../model/content/files/image.js';
import { MAX_FILE_BYTES, type ContentChange, type InsertFiles } from '../schemas.js';

/** A file of an `insert_files` change, with its bytes in hand and its id chosen. */
export interface PreparedFile {
  fileId: string;
  ref: string | undefined;
  name: string;
  contentType: string;
  bytes: Buffer;
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

async function prepareOne(fetcher: OutboundFetcher, file: FileInput, field: string): Promise<PreparedFile> {
  let bytes: Buffer;
  let announcedType: string | undefined;
  if ('base64' in file) {
    if (!file.contentType) throw new BadRequestError(`${field}/contentType is required with base64`);
    bytes = decodeBase64(file.base64, `${field}/base64`);
  } else {
    const response = await fetcher.fetch(file.url);
    if (response.status < 200 || response.status > 299) {
      throw new BadRequestError(`${field}/url answered with status ${response.status}; the file could not be fetched`);
    }
    bytes = response.body;
    announcedType = mediaType(response.contentType);
  }
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
    sha256: createHash('sha256').update(bytes).digest('hex'),
    width: dimensions?.width ?? null,
    height: dimensions?.height ?? null,
  };
}

/**
 * Decodes or fetches every file of the batch before any database work, so
 * that no transaction waits on the network. Keyed by the change's index.
 */
export async function prepareFiles(
  fetcher: OutboundFetcher,
  changes: readonly ContentChange[],
): Promise<Map<number, PreparedFile[]>> {
  const prepared = new Map<number, PreparedFile[]>();
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    const files: PreparedFile[] = [];
    for (const [fileIndex, file] of change.files.entries()) {
      files.push(await prepareOne(fetcher, file, `body/changes/${index}/files/${fileIndex}`));
    }
    prepared.set(index, files);
  }
  return prepared;
}
