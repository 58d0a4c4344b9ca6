import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import { BadRequestError } from '../core/errors.js';

/**
 * The image formats an integration may publish: raster formats only. An SVG
 * would be served from the service's own origin, where a script in it could
 * act as the reader.
 */
const FORMATS = {
  png: { contentType: 'image/png', extension: 'png', signature: (b: Uint8Array) => startsWith(b, PNG) },
  jpg: { contentType: 'image/jpeg', extension: 'jpg', signature: (b: Uint8Array) => startsWith(b, JPEG) },
  gif: { contentType: 'image/gif', extension: 'gif', signature: (b: Uint8Array) => startsWith(b, GIF) },
  webp: {
    contentType: 'image/webp',
    extension: 'webp',
    signature: (b: Uint8Array) => startsWith(b, RIFF) && startsWith(b.subarray(8), WEBP),
  },
} as const;
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF = [0x47, 0x49, 0x46, 0x38];
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];

/** The largest width or height accepted: beyond it, an image is a burden to whoever displays it. */
export const MAX_IMAGE_SIDE = 8192;

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);
}

export interface DecodedImage {
  bytes: Uint8Array;
  sha256: Uint8Array;
  contentType: string;
  extension: string;
  width: number;
  height: number;
}

/** Base64 characters that decode to at most `bytes` bytes. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

const DATA_URL = /^data:image\/[a-z0-9.+-]{1,40};base64,/i;
// Standard or URL-safe alphabet, padded or not; one character class, so the match is linear.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Decodes a base64 image (a `data:image/...;base64,` prefix is taken too) and
 * checks that it is a PNG, JPEG, GIF or WebP within `maxBytes` and
 * MAX_IMAGE_SIDE. Runs on a worker thread: the input is megabytes of text.
 */
export function decodeImage(input: { base64: string; maxBytes: number }): DecodedImage {
  const text = input.base64.replace(DATA_URL, '');
  if (text.length > base64Length(input.maxBytes)) {
    throw new BadRequestError(`is larger than the ${input.maxBytes} bytes an image may have`);
  }
  if (!BASE64.test(text)) throw new BadRequestError('is not base64');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length === 0) throw new BadRequestError('is empty');
  if (bytes.length > input.maxBytes) {
    throw new BadRequestError(`is larger than the ${input.maxBytes} bytes an image may have`);
  }
  const format = Object.values(FORMATS).find((candidate) => candidate.signature(bytes));
  if (!format) throw new BadRequestError('is not a PNG, JPEG, GIF or WebP image');
  // image-size reads through DataViews over the whole backing buffer: give it one of its own.
  const own = new Uint8Array(bytes);
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(own);
  } catch {
    throw new BadRequestError(`is not a readable ${format.extension.toUpperCase()} image`);
  }
  const { width, height } = size;
  if (FORMATS[size.type as keyof typeof FORMATS] !== format || !(width > 0) || !(height > 0)) {
    throw new BadRequestError(`is not a readable ${format.extension.toUpperCase()} image`);
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new BadRequestError(`is ${width}×${height} pixels; an image may have at most ${MAX_IMAGE_SIDE} on a side`);
  }
  return {
    bytes: own,
    sha256: createHash('sha256').update(own).digest(),
    contentType: format.contentType,
    extension: format.extension,
    width,
    height,
  };
}
