import { readHtmlTag } from './html-tag.js';
import { asObject, fail, field, type At, type JsonObject } from './read-json.js';
import type { DocumentColor, DocumentMarkColor } from './types.js';

/**
 * GitBook's coloured text. Its markdown writes it as inline HTML around the
 * text, `<mark style="color:orange;background-color:purple;">…</mark>`, only
 * the parts that are not `default`, text colour first; its document model
 * holds it as a `color` mark on each leaf.
 */

const COLORS: ReadonlySet<string> = new Set<DocumentColor>([
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
]);

/** Colours only the newest spec has: a caller may send them, but a document read here never holds them. */
const NEWEST_ONLY_COLORS: ReadonlySet<string> = new Set(['pink', 'violet', 'cyan', '$tint']);

const ACCEPTED = [...COLORS, ...NEWEST_ONLY_COLORS].join(', ');

/** A colour mark's two parts; written from a caller's document, they may be colours only the newest spec has. */
export interface ColorParts {
  text: string;
  background: string;
}

/** The CSS property GitBook writes for each part, in the order it writes them. */
const PROPERTIES = [
  ['text', 'color'],
  ['background', 'background-color'],
] as const;

const PART_OF_PROPERTY: ReadonlyMap<string, keyof ColorParts> = new Map(
  PROPERTIES.map(([part, property]) => [property, part] as const),
);

/**
 * The colours a `<mark>` tag's `style` gives, a part it leaves out being
 * `default`; null when the style says anything else (another property, a
 * colour GitBook has not, such as `#ff0000` or `pink`), so that the text is
 * kept without a mark rather than with a colour the spec cannot hold.
 */
function colorsOfStyle(style: string | undefined): DocumentMarkColor['data'] | null {
  if (style === undefined) return null;
  const data: DocumentMarkColor['data'] = { text: 'default', background: 'default' };
  for (const declaration of style.split(';')) {
    if (declaration.trim() === '') continue;
    const colon = declaration.indexOf(':');
    if (colon === -1) return null;
    const part = PART_OF_PROPERTY.get(declaration.slice(0, colon).trim().toLowerCase());
    const value = declaration
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (part === undefined || !COLORS.has(value)) return null;
    data[part] = value as DocumentColor;
  }
  return data;
}

/** The mark for these colours; none when both are `default`, which shows nothing. */
export function colorMark(data: DocumentMarkColor['data']): DocumentMarkColor | null {
  if (data.text === 'default' && data.background === 'default') return null;
  return { object: 'mark', type: 'color', data: { text: data.text, background: data.background } };
}

/**
 * The `<mark>` tags open at a point of a paragraph, read in the order the
 * parser hands them over, each its own inline HTML node: text between a
 * tag and its close takes the tag's colour, across bold, italics and links
 * inside it. A tag inside another colours what it sets (a background under
 * a text colour), as a browser shows it.
 */
export class OpenColorMarks {
  private readonly open: Array<DocumentMarkColor | null> = [];

  /** Takes in an inline HTML node; true when it was a `<mark>` tag, which itself shows nothing. */
  read(html: string): boolean {
    const tag = readHtmlTag(html);
    if (tag?.name !== 'mark') return false;
    if (tag.closing) {
      this.open.pop();
      return true;
    }
    const data = colorsOfStyle(tag.attributes.get('style'));
    const outer = this.current?.data;
    // What the tag leaves `default` shows the colour of the tag around it.
    this.open.push(
      data &&
        colorMark({
          text: data.text === 'default' && outer ? outer.text : data.text,
          background: data.background === 'default' && outer ? outer.background : data.background,
        }),
    );
    return true;
  }

  /** The colour of text here: none outside every tag, or inside one that is not GitBook's. */
  get current(): DocumentMarkColor | null {
    return this.open.at(-1) ?? null;
  }
}

/** Whether two colour marks (or their absence) are the same. */
export function sameColors(a: ColorParts | null, b: ColorParts | null): boolean {
  return a === b || (a !== null && b !== null && a.text === b.text && a.background === b.background);
}

/** `<mark style="color:orange;background-color:purple;">`, the parts that are not `default` only. */
export function openMarkTag(colors: ColorParts): string {
  const style = PROPERTIES.filter(([part]) => colors[part] !== 'default')
    .map(([part, property]) => `${property}:${colors[part]};`)
    .join('');
  return `<mark style="${style}">`;
}

export const CLOSE_MARK_TAG = '</mark>';

/** Whether an inline HTML node is a tag `openMarkTag` wrote. */
export function isOpenMarkTag(html: string): boolean {
  return html.startsWith('<mark style="');
}

export function isCloseMarkTag(html: string): boolean {
  return html === CLOSE_MARK_TAG;
}

function colorPart(value: unknown, at: At): string {
  if (typeof value !== 'string' || !(COLORS.has(value) || NEWEST_ONLY_COLORS.has(value)))
    fail(at, `must be one of: ${ACCEPTED}`);
  return value;
}

/**
 * The colours of a caller's colour mark, checked as both parts are required
 * (a 400 naming the field otherwise); null when both are `default`.
 */
export function readColorMark(mark: JsonObject, at: At): ColorParts | null {
  const dataAt = field(at, 'data');
  const data = asObject(mark.data, dataAt);
  const text = colorPart(data.text, field(dataAt, 'text'));
  const background = colorPart(data.background, field(dataAt, 'background'));
  return text === 'default' && background === 'default' ? null : { text, background };
}
