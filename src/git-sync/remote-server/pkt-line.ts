/**
 * Git's pkt-line framing (gitprotocol-common): four hex digits of length,
 * the length counting themselves, then the data; `0000` is a flush. And the
 * side band a push's answer travels in when the client asks for it (band 1
 * the answer, band 2 messages it prints as `remote: ...`).
 */

export const FLUSH = Buffer.from('0000');

/** The largest data of one pkt-line. */
const MAX_DATA = 65516;

export function pktLine(data: string | Buffer): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.byteLength > MAX_DATA) throw new Error('A pkt-line holds at most 65516 bytes');
  return Buffer.concat([Buffer.from((bytes.byteLength + 4).toString(16).padStart(4, '0')), bytes]);
}

export type PktLine = Buffer | 'flush' | 'delim';

/**
 * Reads pkt-lines from the start of `buffer` until a flush (included) or its
 * end; returns them and where reading stopped, or undefined for a malformed
 * length. A line cut by the buffer's end is left unread.
 */
export function readPktLines(
  buffer: Buffer,
  options: { untilFlush: boolean },
): { lines: PktLine[]; offset: number; flushed: boolean } | undefined {
  const lines: PktLine[] = [];
  let offset = 0;
  while (offset + 4 <= buffer.byteLength) {
    const head = buffer.subarray(offset, offset + 4).toString('latin1');
    if (!/^[0-9a-f]{4}$/i.test(head)) return undefined;
    const length = parseInt(head, 16);
    if (length === 0 || length === 1) {
      lines.push(length === 0 ? 'flush' : 'delim');
      offset += 4;
      if (length === 0 && options.untilFlush) return { lines, offset, flushed: true };
      continue;
    }
    if (length < 4) return undefined;
    if (offset + length > buffer.byteLength) break;
    lines.push(buffer.subarray(offset + 4, offset + length));
    offset += length;
  }
  return { lines, offset, flushed: false };
}

/** The band's pkt-lines carrying `data`, in pieces of at most 65515 bytes. */
export function sideBand(band: 1 | 2 | 3, data: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < data.byteLength; at += MAX_DATA - 1) {
    pieces.push(pktLine(Buffer.concat([Buffer.from([band]), data.subarray(at, at + MAX_DATA - 1)])));
  }
  return pieces;
}

/** A line's text without its trailing newline. */
export function lineText(line: Buffer): string {
  const text = line.toString('utf8');
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
