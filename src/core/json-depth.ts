/**
 * How deep a request body's objects and arrays may nest. The deepest body a
 * client needs carries a JSON document (at most 128 levels, DOCUMENT_LIMITS)
 * a few levels inside its envelope; twice that leaves room and still refuses
 * the bodies that cost the parser and every walk after it their depth: a
 * body of a million `[` takes over a second of the event loop to parse.
 */
export const JSON_MAX_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether JSON text nests objects and arrays deeper than `limit`, read in
 * one linear pass over its bytes before it is parsed: brackets inside
 * strings do not count. Malformed text is not judged here (the parser
 * refuses it): an unterminated string ends the scan.
 */
export function nestsDeeperThan(json: Buffer, limit: number): boolean {
  // Every level takes at least one byte.
  if (json.length <= limit) return false;
  let depth = 0;
  for (let at = 0; at < json.length; at++) {
    const byte = json[at]!;
    if (byte === QUOTE) {
      at = closingQuote(json, at);
      if (at === -1) return false;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth -= 1;
    }
  }
  return false;
}

/** Bytes read one by one before a string is searched with `indexOf`: short strings and runs of escapes are cheaper so. */
const STEP = 64;

/**
 * The index of the quote that closes the string opened at `open`, or -1.
 * Read byte by byte (a backslash escapes the next byte) for STEP bytes, then
 * the next quote is found with `indexOf` and is the end unless an odd run of
 * backslashes precedes it. A run of backslashes always starts where an escape
 * may (after an ordinary or escaped byte), so counting it back is exact, and
 * each run is counted once: the scan stays linear.
 */
function closingQuote(json: Buffer, open: number): number {
  let at = open + 1;
  for (;;) {
    const stop = Math.min(json.length, at + STEP);
    while (at < stop) {
      const byte = json[at]!;
      if (byte === QUOTE) return at;
      at += byte === BACKSLASH ? 2 : 1;
    }
    if (at >= json.length) return -1;
    const quote = json.indexOf(QUOTE, at);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (json[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}
