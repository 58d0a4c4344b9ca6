import { imageSize } from 'image-size';

/**
 * MIME types of the image formats whose signature is distinctive enough to trust over a file's name.
 * image-size also guesses formats from two-byte or textual signatures (tga, pnm, dds ...): a text
 * file that happens to start with "P1" is not a bitmap, so those are left to the extension.
 */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  ico: 'image/vnd.microsoft.icon',
  cur: 'image/vnd.microsoft.icon',
  jxl: 'image/jxl',
  psd: 'image/vnd.adobe.photoshop',
  jp2: 'image/jp2',
  // HEIF containers: image-size reports the brand it found.
  avif: 'image/avif',
  heic: 'image/heic',
  heix: 'image/heic',
  hevc: 'image/heic',
  hevx: 'image/heic',
  mif1: 'image/heif',
  msf1: 'image/heif',
};

const EXTENSION_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  ico: 'image/vnd.microsoft.icon',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  csv: 'text/csv',
  zip: 'application/zip',
  mp4: 'video/mp4',
};

/** An SVG file opens with its root, an XML declaration, a doctype or a comment; a page that merely embeds one does not. */
function startsLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 256))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /^<(svg[\s>]|\?xml|!doctype svg|!--)/i.test(head);
}

/** "BM" alone is common text; a real bitmap also has zero reserved bytes and a known header size. */
function isBitmap(bytes: Uint8Array): boolean {
  if (bytes.length < 18) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(6, true) === 0 && [12, 40, 52, 56, 64, 108, 124].includes(view.getUint32(14, true));
}

interface DetectedImage {
  mimeType: string;
  width: number;
  height: number;
}

function detectImage(bytes: Uint8Array): DetectedImage | undefined {
  // image-size reads through DataViews that stop at the end of the backing buffer, not of the view:
  // a truncated image inside a larger buffer (Node pools small Buffers) would be measured from its neighbours' bytes.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(own);
  } catch {
    return undefined;
  }
  const mimeType = size.type === undefined ? undefined : IMAGE_TYPES[size.type];
  if (mimeType === undefined) return undefined;
  if (size.type === 'svg' && !startsLikeSvg(own)) return undefined;
  if (size.type === 'bmp' && !isBitmap(own)) return undefined;
  const { width, height } = size;
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width <= 0 || height <= 0) return undefined;
  // EXIF orientations 5 to 8 turn the picture a quarter: it displays with width and height swapped.
  const turned = size.orientation !== undefined && size.orientation >= 5 && size.orientation <= 8;
  return turned ? { mimeType, width: height, height: width } : { mimeType, width, height };
}

/** The displayed size of an image, or undefined when the bytes are not an image this service can measure. */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const image = detectImage(bytes);
  return image && { width: image.width, height: image.height };
}

/** The MIME type of a file: from its bytes when they are a recognisable image, else from its name. */
export function sniffContentType(bytes: Uint8Array, name: string): string {
  const image = detectImage(bytes);
  if (image) return image.mimeType;
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (extension !== undefined && EXTENSION_TYPES[extension]) || 'application/octet-stream';
}
