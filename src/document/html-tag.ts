/**
 * One HTML tag as markdown's parser hands it over inline (`<img …>`,
 * `<a … class="button primary">`, `</a>`): its name and attributes. Read by
 * hand in one pass rather than by an HTML parser, since a page holds any
 * number of them and each would pay a parser's setup.
 */

export interface HtmlTag {
  /** Lowercased. */
  name: string;
  closing: boolean;
  /** Lowercased names; a bare attribute (`data-hidden`) has the value ''. Character references are decoded. */
  attributes: Map<string, string>;
}

const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** `&#x26;`, `&#38;` and the few named references writers use in attribute values; others stay as written. */
export function decodeReferences(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]{2,6});/g, (whole, name: string) => {
    if (name[0] !== '#') return NAMED_REFERENCES[name] ?? whole;
    const point = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return point > 0 && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff) ? String.fromCodePoint(point) : whole;
  });
}

const isSpace = (char: string | undefined) =>
  char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f';
const isNameEnd = (char: string | undefined) =>
  char === undefined || isSpace(char) || char === '/' || char === '>' || char === '=';

/** The tag `raw` is, whole (nothing before `<` or after `>` but spaces), or null. */
export function readHtmlTag(raw: string): HtmlTag | null {
  const text = raw.trim();
  if (!text.startsWith('<') || !text.endsWith('>')) return null;
  let at = 1;
  const closing = text[at] === '/';
  if (closing) at += 1;
  const nameStart = at;
  while (!isNameEnd(text[at])) at += 1;
  const name = text.slice(nameStart, at).toLowerCase();
  if (!/^[a-z][a-z0-9-]*$/.test(name)) return null;
  const attributes = new Map<string, string>();
  const end = text.length - 1;
  while (at < end) {
    while (at < end && (isSpace(text[at]) || text[at] === '/')) at += 1;
    if (at >= end) break;
    const start = at;
    while (at < end && !isNameEnd(text[at])) at += 1;
    const attribute = text.slice(start, at).toLowerCase();
    if (attribute === '') return null;
    while (at < end && isSpace(text[at])) at += 1;
    let value = '';
    if (text[at] === '=') {
      at += 1;
      while (at < end && isSpace(text[at])) at += 1;
      const quote = text[at];
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, at + 1);
        if (close === -1 || close > end) return null;
        value = text.slice(at + 1, close);
        at = close + 1;
      } else {
        const valueStart = at;
        while (at < end && !isSpace(text[at])) at += 1;
        value = text.slice(valueStart, at);
      }
    }
    // The first of a repeated attribute wins, as in HTML.
    if (!attributes.has(attribute)) attributes.set(attribute, decodeReferences(value));
  }
  if (closing && attributes.size > 0) return null;
  return { name, closing, attributes };
}

/** Whether a `class` attribute's value holds `name` among its space-separated classes. */
export function hasClass(value: string | undefined, name: string): boolean {
  return value !== undefined && value.split(/\s+/).includes(name);
}

/** Text and attribute values as HTML, every character markdown or HTML would read as syntax as a numeric reference. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'*_`[\]\\~|]/g, (char) => `&#x${char.charCodeAt(0).toString(16)};`);
}
