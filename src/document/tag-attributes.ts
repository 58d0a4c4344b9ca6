/**
 * The attributes of GitBook's `{% name key="value" … %}` tag lines, read and
 * written. A value is quoted with `"` or `'`; titles and descriptions are
 * written with their own quote marks unescaped, so for those a value runs to
 * the quote that ends it before the next attribute. An attribute that cannot
 * be read (a typographic quote closing it, no quotes at all) makes the whole
 * tag unreadable, and the tag then stays the text it was written as.
 */

export type TagAttributes = ReadonlyMap<string, string>;

/** Attributes whose values GitBook writes with quote marks inside, unescaped. */
const FREE_TEXT = new Set(['title', 'description']);

/** Where an attribute starts: after white space (or at the start), a name, `=` and a quote. */
const ATTRIBUTE_START = /(?<=^|[\t ])([A-Za-z][\w-]*)=(["'])/g;

const isBlank = (char: string | undefined) => char === ' ' || char === '\t';

/**
 * The attributes written after a tag's name, or null when they cannot be read.
 * One pass: each attribute start is found once by one global search, and each
 * value is the text between its start and the next one (or more of them, for
 * a title holding ` x="`).
 */
export function readAttributes(text: string): TagAttributes | null {
  const source = text.trim();
  const attributes = new Map<string, string>();
  if (source === '') return attributes;
  const starts = [...source.matchAll(ATTRIBUTE_START)];
  if (starts[0]?.index !== 0) return null;
  let index = 0;
  while (index < starts.length) {
    const start = starts[index]!;
    const [whole, name, quote] = start as unknown as [string, string, string];
    const from = start.index + whole.length;
    // A value ends before the white space in front of the next start; each such run is stepped over once.
    let next = index + 1;
    let value: string | null = null;
    while (value === null) {
      let to = next < starts.length ? starts[next]!.index : source.length;
      while (to > from && isBlank(source[to - 1])) to -= 1;
      if (to - 1 >= from && source[to - 1] === quote) value = source.slice(from, to - 1);
      else if (next >= starts.length || !FREE_TEXT.has(name)) return null;
      else next += 1;
    }
    if ((!FREE_TEXT.has(name) && value.includes(quote)) || attributes.has(name)) return null;
    attributes.set(name, value);
    index = next;
  }
  return attributes;
}

/** `"true"` and `"false"` as booleans; any other value is unreadable (undefined when absent). */
export function booleanAttribute(attributes: TagAttributes, name: string): boolean | null | undefined {
  const value = attributes.get(name);
  if (value === undefined) return undefined;
  return value === 'true' ? true : value === 'false' ? false : null;
}

/** One of the allowed values, undefined when absent, null when it is something else. */
export function choiceAttribute<T extends string>(
  attributes: TagAttributes,
  name: string,
  allowed: readonly T[],
): T | null | undefined {
  const value = attributes.get(name);
  if (value === undefined) return undefined;
  return allowed.find((choice) => choice === value) ?? null;
}

/**
 * A value (a title, a URL) as written into a tag line: the characters a
 * paragraph would read as formatting, a link or an entity escaped, so the
 * line reads back as the same text; a tag is one line, so breaks are spaces.
 */
export function escapeTagValue(value: string): string {
  return value.replace(/[\n\r]+/g, ' ').replace(UNSAFE, '\\$&');
}

/**
 * What a paragraph would read as more than text: emphasis and code marks,
 * brackets, backslashes; `_` only where it could open or close emphasis (not
 * inside a word, so `my_file.py` stays as written); `<` only where a tag
 * could start, `&` only where an entity is; `$` only next to another (`$$` is math).
 */
const UNSAFE =
  /[\\`*~[\]]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)|\$(?=\$)|(?<=\$)\$/g;

/** `{% name a="x" b="y" %}`, attributes without a value left out, values escaped. */
export function tagLine(name: string, attributes: Array<[string, string | undefined]> = []): string {
  const written = attributes
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeTagValue(value)}"`)
    .join('');
  return `{% ${name}${written} %}`;
}

export function closingTag(name: string): string {
  return `{% end${name} %}`;
}
