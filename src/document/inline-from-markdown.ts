import type { Definition, PhrasingContent } from 'mdast';
import { append, leaf, marksOf, normalizeInlines, textNode, withoutTrailingLineBreaks } from './build.js';
import { OpenColorMarks } from './color-marks.js';
import { carried, carriedTag, readInlineHtml } from './inline-html.js';
import { imageRefFromUrl, refFromUrl } from './links.js';
import type {
  DocumentFormatMarkType,
  DocumentInlineContent,
  DocumentInlineImage,
  DocumentInlineLink,
  DocumentText,
} from './types.js';

/** Link definitions by their normalised label, for reference-style links and images. */
export type Definitions = Map<string, Definition>;

const LINE_BREAK_TAGS = new Set(['<br>', '<br/>', '<br />']);

/** A soft line break is a space to the reader; GitBook's text keeps `\n` for hard breaks only. */
function softBreaksAsSpaces(text: string): string {
  return text.replaceAll('\r\n', ' ').replaceAll('\n', ' ').replaceAll('\r', ' ');
}

/** What formats the text at a point: the marks of the markdown around it, and the `<mark>` tags open there. */
interface Marks {
  format: DocumentFormatMarkType[];
  colors: OpenColorMarks;
}

function text(value: string, marks: Marks): DocumentText {
  return textNode([leaf(value, marksOf(marks.format, marks.colors.current))]);
}

export function inlineImage(
  url: string,
  alt: string | null | undefined,
  title: string | null | undefined,
): DocumentInlineImage {
  return {
    object: 'inline',
    type: 'inline-image',
    data: { ref: imageRefFromUrl(url), ...(alt ? { alt } : {}), ...(title ? { caption: title } : {}) },
    isVoid: true,
  };
}

function link(url: string, children: PhrasingContent[], marks: Marks, definitions: Definitions): DocumentInlineLink {
  const nodes = phrasing(children, marks, definitions).filter(
    (node): node is DocumentText | DocumentInlineImage => node.object === 'text' || node.type === 'inline-image',
  );
  return { object: 'inline', type: 'link', data: { ref: refFromUrl(url) }, nodes: normalizeInlines(nodes) };
}

const MARK_OF = { strong: 'bold', emphasis: 'italic', delete: 'strikethrough' } as const;

/**
 * mdast phrasing as document inline content, its formatting turned into
 * marks. A loop over the formatting rather than recursion, since `*` runs can
 * nest thousands deep. GitBook's inline HTML (images, buttons) is read as the
 * inlines it stands for (inline-html.ts), its `<mark>` tags as colour marks
 * (color-marks.ts); other HTML tags are dropped and the text between them
 * kept, except `<br>`, which is a line break.
 */
function phrasing(children: PhrasingContent[], marks: Marks, definitions: Definitions): DocumentInlineContent[] {
  const out: DocumentInlineContent[] = [];
  const pending = readInlineHtml(children)
    .map((node) => ({ node, marks }))
    .reverse();
  while (pending.length > 0) {
    const { node, marks } = pending.pop()!;
    if (node.type === 'inline-image' || node.type === 'button' || node.type === 'icon') out.push(node);
    else if (node.type === 'strong' || node.type === 'emphasis' || node.type === 'delete') {
      const mark = MARK_OF[node.type];
      const inner = marks.format.includes(mark) ? marks : { ...marks, format: [...marks.format, mark] };
      const inside = readInlineHtml(node.children);
      for (let i = inside.length - 1; i >= 0; i -= 1) pending.push({ node: inside[i]!, marks: inner });
    } else append(out, unformatted(node, marks, definitions));
  }
  return out;
}

function unformatted(node: PhrasingContent, marks: Marks, definitions: Definitions): DocumentInlineContent[] {
  switch (node.type) {
    case 'text':
      return [text(softBreaksAsSpaces(node.value), marks)];
    case 'inlineCode':
      return [text(softBreaksAsSpaces(node.value), { ...marks, format: [...marks.format, 'code'] })];
    case 'break':
      return [text('\n', marks)];
    case 'link': {
      const tag = carriedTag(node);
      if (tag) return unformatted(tag, marks, definitions);
      const inline = carried(node);
      return inline ? [inline] : [link(node.url, node.children, marks, definitions)];
    }
    case 'linkReference': {
      const definition = definitions.get(node.identifier);
      return definition
        ? [link(definition.url, node.children, marks, definitions)]
        : phrasing(node.children, marks, definitions);
    }
    case 'image':
      return [inlineImage(node.url, node.alt, node.title)];
    case 'imageReference': {
      const definition = definitions.get(node.identifier);
      return definition ? [inlineImage(definition.url, node.alt, definition.title)] : [];
    }
    case 'html':
      if (marks.colors.read(node.value)) return [];
      return LINE_BREAK_TAGS.has(node.value.trim().toLowerCase()) ? [text('\n', marks)] : [];
    case 'inlineMath':
      return [{ object: 'inline', type: 'inline-math', data: { formula: node.value }, isVoid: true }];
    case 'footnoteReference':
      // GitBook has no footnotes; the marker stays readable.
      return [text(`[^${node.label ?? node.identifier}]`, marks)];
    default:
      return [];
  }
}

/** A paragraph's, heading's or table cell's content as document inline content. */
export function inlineContent(children: PhrasingContent[], definitions: Definitions): DocumentInlineContent[] {
  const marks: Marks = { format: [], colors: new OpenColorMarks() };
  return withoutTrailingLineBreaks(normalizeInlines(phrasing(children, marks, definitions)));
}
