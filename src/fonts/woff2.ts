import { brotliDecompress } from 'node:zlib';
import { promisify } from 'node:util';

/** The largest font file a face may be: a full Latin family's weight is well under it, a CJK one about at it. */
export const FONT_FILE_MAX_BYTES = 4 * 1024 * 1024;

const decompress = promisify(brotliDecompress);

const HEADER_BYTES = 48;
const SIGNATURE = 0x774f4632; // 'wOF2'
/** TrueType, CFF ('OTTO') and Apple's 'true'; a collection ('ttcf') is no web font of one family. */
const FLAVORS = new Set([0x00010000, 0x4f54544f, 0x74727565]);
/** WOFF2's known-table index of the tables the checks name. */
const HEAD = 1;
const GLYF = 10;
const LOCA = 11;
const CFF = 13;
const ARBITRARY_TAG = 63;
/** Enough for any real font; a directory beyond it is garbage, not a font. */
const MAX_TABLES = 256;
/** A table's decompressed length: no font table comes near it. */
const MAX_TABLE_BYTES = 64 * 1024 * 1024;

export class FontFileError extends Error {}

function refuse(reason: string): never {
  throw new FontFileError(`is not a valid WOFF2 font: ${reason}`);
}

/** WOFF2's UIntBase128: at most five bytes, no leading zero byte, within 32 bits. */
function readBase128(bytes: Buffer, at: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (at + i >= bytes.length) refuse('its table directory runs past the end of the file');
    const byte = bytes[at + i]!;
    if (i === 0 && byte === 0x80) refuse('a length in its table directory has a leading zero');
    if (value & 0xfe000000) refuse('a length in its table directory is over 32 bits');
    value = (value << 7) | (byte & 0x7f);
    value >>>= 0;
    if ((byte & 0x80) === 0) return { value, next: at + i + 1 };
  }
  refuse('a length in its table directory is longer than five bytes');
}

interface Directory {
  /** Where the compressed table data starts. */
  dataOffset: number;
  /** Bytes the table data decompresses to. */
  decompressedBytes: number;
  totalCompressedSize: number;
}

/**
 * Checks a WOFF2 file's header and table directory against its length: the
 * cheap, linear part of the check, on the first bytes only.
 */
export function readWoff2Directory(bytes: Buffer): Directory {
  if (bytes.length < HEADER_BYTES) refuse('it is shorter than a WOFF2 header');
  if (bytes.readUInt32BE(0) !== SIGNATURE) refuse('it does not start with the signature wOF2');
  if (!FLAVORS.has(bytes.readUInt32BE(4))) refuse('its flavor is not TrueType or CFF (collections are refused)');
  if (bytes.readUInt32BE(8) !== bytes.length) refuse('the length in its header is not the size of the file');
  const numTables = bytes.readUInt16BE(12);
  if (numTables === 0 || numTables > MAX_TABLES) refuse(`it has ${numTables} tables (1 to ${MAX_TABLES})`);
  if (bytes.readUInt16BE(14) !== 0) refuse('the reserved field of its header is not zero');
  const totalCompressedSize = bytes.readUInt32BE(20);
  const seen = new Set<number | string>();
  let at = HEADER_BYTES;
  let decompressedBytes = 0;
  for (let table = 0; table < numTables; table++) {
    if (at >= bytes.length) refuse('its table directory runs past the end of the file');
    const flags = bytes[at++]!;
    const index = flags & 0x3f;
    const transform = flags >> 6;
    let tag: number | string = index;
    if (index === ARBITRARY_TAG) {
      if (at + 4 > bytes.length) refuse('its table directory runs past the end of the file');
      tag = bytes.toString('latin1', at, at + 4);
      at += 4;
    }
    if (seen.has(tag)) refuse('a table appears twice in its directory');
    seen.add(tag);
    const original = readBase128(bytes, at);
    at = original.next;
    // glyf and loca are transformed unless their version is 3; any other table is transformed unless it is 0.
    const transformed = index === GLYF || index === LOCA ? transform !== 3 : transform !== 0;
    let length = original.value;
    if (transformed) {
      const transformedLength = readBase128(bytes, at);
      at = transformedLength.next;
      length = transformedLength.value;
    }
    if (length > MAX_TABLE_BYTES) refuse('a table is larger than any font table');
    decompressedBytes += length;
  }
  if (!seen.has(HEAD)) refuse('it has no head table');
  if (!seen.has(GLYF) && !seen.has(CFF)) refuse('it has no glyphs (no glyf or CFF table)');
  if (seen.has(GLYF) !== seen.has(LOCA)) refuse('it has one of glyf and loca without the other');
  if (totalCompressedSize === 0 || at + totalCompressedSize > bytes.length) {
    refuse('its compressed data does not fit in the file');
  }
  checkBlock(bytes, 'metadata', 28, at + totalCompressedSize);
  checkBlock(bytes, 'private data', 40, at + totalCompressedSize);
  return { dataOffset: at, decompressedBytes, totalCompressedSize };
}

/** The metadata and private blocks, when there are any, lie after the table data and within the file. */
function checkBlock(bytes: Buffer, name: string, field: number, dataEnd: number): void {
  const offset = bytes.readUInt32BE(field);
  const length = bytes.readUInt32BE(field + 4);
  if (length === 0) return;
  if (offset < dataEnd || offset + length > bytes.length) refuse(`its ${name} block is outside the file`);
}

/**
 * Checks that `bytes` are a WOFF2 font: the header and directory first, then
 * the table data, which must decompress (on libuv's threads, off the event
 * loop) to exactly the tables' lengths. The output is bounded by those
 * lengths, so a decompression bomb stops at them.
 */
export async function checkWoff2(bytes: Buffer): Promise<void> {
  if (bytes.length > FONT_FILE_MAX_BYTES) refuse(`it is over the ${FONT_FILE_MAX_BYTES}-byte limit of a font file`);
  const directory = readWoff2Directory(bytes);
  const compressed = bytes.subarray(directory.dataOffset, directory.dataOffset + directory.totalCompressedSize);
  let tables: Buffer;
  try {
    tables = await decompress(compressed, { maxOutputLength: Math.max(1, directory.decompressedBytes) });
  } catch {
    refuse('its table data is not Brotli data of the tables’ lengths');
  }
  if (tables.length !== directory.decompressedBytes) refuse('its table data is not as long as its tables say');
}
