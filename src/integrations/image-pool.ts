import { taskModuleBeside, type WorkPool, type WorkPoolOptions } from '../core/work-pool.js';
import { BadRequestError } from '../core/errors.js';
import { base64Length, type DecodedImage } from './images.js';

const TASKS = taskModuleBeside(import.meta.url, 'image-tasks');

/**
 * The pool published images are decoded on, built once by the app: two
 * threads at most (started when first needed), two seconds an image plus 1 ms
 * a KiB, waiting for a thread as long as conversions do.
 */
export function imageDecoderPool(
  conversion: { threads: number; queueWaitMs: number },
  onThreadError: (error: unknown) => void,
): WorkPoolOptions {
  const threads = Math.min(2, conversion.threads);
  return {
    filename: TASKS,
    threads,
    queueWaitMs: conversion.queueWaitMs,
    timeoutMs: 2_000,
    msPerKib: 1,
    maxQueue: threads * 32,
    onThreadError,
  };
}

/**
 * Decodes published images on worker threads, within a deadline. The length
 * of the base64 is checked first, here: a text too long for the limit is
 * refused before any thread sees it.
 */
export class ImageDecoder {
  /** `pool` runs imageDecoderPool's tasks. */
  constructor(private readonly pool: WorkPool) {}

  /** The image in `base64`, or a 400 naming `field` and what is wrong with it. */
  async decode(base64: string, maxBytes: number, field: string): Promise<DecodedImage> {
    // Room for a `data:` prefix; decodeImage measures the base64 alone.
    if (base64.length > base64Length(maxBytes) + 64) {
      throw new BadRequestError(`${field} is larger than the ${maxBytes} bytes an image may have`);
    }
    const image = await this.pool.run<DecodedImage>(
      'decodeImage',
      { base64, maxBytes },
      { field, characters: base64.length },
    );
    return { ...image, bytes: toBuffer(image.bytes), sha256: toBuffer(image.sha256) };
  }
}

/** A worker's Uint8Array as a Buffer, sharing its memory. */
function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
