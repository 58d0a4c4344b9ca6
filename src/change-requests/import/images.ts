import { OutboundError, type OutboundFetcher } from '../../core/outbound.js';
import { sniffContentType } from '../../content/files/image.js';
import { preparedFile, type PreparedFile } from '../changes/files.js';
import type { Allowance } from './allowance.js';
import { forEachConcurrently } from '../../core/concurrently.js';
import { keySegments } from './urls.js';

/** The most one imported image may weigh. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Images of one import at most: past them, images stay links to where they are. */
export const MAX_IMAGES = 1_000;
const CONCURRENCY = 4;

const mediaType = (header: string | null) => header?.split(';')[0]?.trim().toLowerCase() || undefined;

/** A file name from the image's URL: its last path segment, or `image`. */
function fileName(url: URL): string {
  const last = keySegments(url.pathname).pop() ?? '';
  const name = last.replace(/[/\\]/g, '-').trim().slice(-200);
  return name || 'image';
}

/** The image at `url` as a file of the batch, or undefined when it is not an image or cannot be fetched. */
async function fetchImage(
  outbound: OutboundFetcher,
  url: string,
  ref: string,
  allowance: Allowance,
): Promise<PreparedFile | undefined> {
  const size = allowance.reserve(MAX_IMAGE_BYTES);
  if (size === 0) return undefined;
  let response;
  try {
    response = await outbound.fetch(url, { maxBytes: size, accept: 'image/*' });
  } catch (error) {
    allowance.settle(size, 0);
    if (error instanceof OutboundError) return undefined;
    throw error;
  }
  allowance.settle(size, response.body.length);
  if (response.status < 200 || response.status > 299) return undefined;
  const bytes = response.body;
  const name = fileName(new URL(response.url));
  const sniffed = sniffContentType(bytes, name);
  const announced = mediaType(response.contentType);
  const contentType = sniffed.startsWith('image/') ? sniffed : announced?.startsWith('image/') ? announced : undefined;
  if (!contentType) return undefined;
  return preparedFile(bytes, { ref, name, contentType });
}

/**
 * Fetches the images, a few at a time, within the import's limits. Each one
 * fetched becomes a file of the batch under the ref `refOf` gives its index;
 * the others are left out, and their pages keep their URLs.
 */
export async function fetchImages(
  outbound: OutboundFetcher,
  urls: readonly string[],
  refOf: (index: number) => string,
  allowance: Allowance,
): Promise<Map<string, PreparedFile>> {
  const fetched: Array<PreparedFile | undefined> = [];
  await forEachConcurrently(urls, CONCURRENCY, async (url, index) => {
    fetched[index] = await fetchImage(outbound, url, refOf(index), allowance);
  });
  const files = new Map<string, PreparedFile>();
  for (const [index, file] of fetched.entries()) if (file) files.set(urls[index]!, file);
  return files;
}
