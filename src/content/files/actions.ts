import { NotFoundError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { findFileVersionWithBytes } from './queries.js';

/** Types a browser may show inline; anything else downloads, so no upload runs as a page of this origin. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|application\/pdf|text\/plain|video\/mp4)$/;

export interface Download {
  name: string;
  contentType: string;
  sha256: string;
  bytes: Buffer;
  disposition: 'inline' | 'attachment';
  /** How long the caller may keep the bytes: until the link expires. */
  maxAgeSeconds: number;
}

/**
 * The file version a signed download link names, without a token: the
 * signature is the permission, and it expires.
 */
export async function downloadFile(
  context: Context,
  versionId: string,
  expires: number,
  signature: string,
): Promise<Download> {
  const gone = new NotFoundError('This download link is unknown or has expired; read the file again for a fresh one');
  if (!context.fileUrls.verify(versionId, expires, signature, context.clock.now())) throw gone;
  const file = await findFileVersionWithBytes(context.db, versionId);
  if (!file) throw gone;
  return {
    name: file.name,
    contentType: file.content_type,
    sha256: file.sha256,
    bytes: file.bytes,
    disposition: INLINE_TYPES.test(file.content_type) ? 'inline' : 'attachment',
    maxAgeSeconds: Math.max(0, expires - Math.floor(context.clock.now().getTime() / 1000)),
  };
}
