import type { Definition, PhrasingContent } from 'mdast';
import { leaf, marksOf, normalizeInlines, textNode, withoutTrailingLineBreaks } from './build.js';
import { imageRefFromUrl, refFromUrl } from './links.js';
import type {
  DocumentInlineContent,
  DocumentInlineImage,
  DocumentInlineLink,
  DocumentMarkType,
  DocumentText,
} from './types.js';

/** Link definitions by their normalised label, for reference-style links and images. */
export type Definitions = Map<string, Definition>;

const LINE_BREAK_TAGS = new Set(['<br>', '<br/>', '<br />']);

/** A soft line break is a space to the reader; GitBook's text keeps `\n` for hard breaks only. */
function softBreaksAsSpaces(text: string): string {
  return text.replaceAll('\r\n', ' ').replaceAll('\n', ' ').replaceAll('\r', ' ');
}

function text(value: string, marks: DocumentMarkType[]): DocumentText {
  return textNode([leaf(value, marksOf(marks))]);
}

export function inlineImage(url: string, alt: string | null | undefined, title: string | null | undefined): DocumentInlineImage {
  return {
    object: 'inline',
    type: 'inline-image',
    data: { ref: imageRefFromUrl(url), ...(alt ? { alt } : {}), ...(title ? { caption: title } : {}) },
    isVoid: true,
  };
}

function link(url: string, children: PhrasingContent[], marks: DocumentMarkType[], definitions: Definitions): DocumentInlineLink {
  const nodes = children
    .flatMap((child) => phrasing(child, marks, definitions))
    .filter((node): node is DocumentText | DocumentInlineImage => node.object === 'text' || node.type === 'inline-image');
  return { object: 'inline', type: 'link', data: { ref: refFromUrl(url) }, nodes: normalizeInlines(nodes) };
}

/**
 * One mdast phrasing node as document inline content, its formatting turned
 * into marks. HTML tags are dropped and the text between them kept, except
 * `<br>`, which is a line break.
 */
function phrasing(node: PhrasingContent, marks: DocumentMarkType[], definitions: Definitions): DocumentInlineContent[] {
  const inside = (children: PhrasingContent[], mark: DocumentMarkType) =>
    children.flatMap((child) => phrasing(child, [...marks, mark], definitions));
  switch (node.type) {
    case 'text':
      return [text(softBreaksAsSpaces(node.value), marks)];
    case 'inlineCode':
      return [text(softBreaksAsSpaces(node.value), [...marks, 'code'])];
    case 'break':
      return [text('\n', marks)];
    case 'strong':
      return inside(node.children, 'bold');
    case 'emphasis':
      return inside(node.children, 'italic');
    case 'delete':
      return inside(node.children, 'strikethrough');
    case 'link':
      return [link(node.url, node.children, marks, definitions)];
    case 'linkReference': {
      const definition = definitions.get(node.identifier);
      if (definition) return [link(definition.url, node.children, marks, definitions)];
      return node.children.flatMap((child) => phrasing(child, marks, definitions));
    }
    case 'image':
      return [inlineImage(node.url, node.alt, node.title)];
    case 'imageReference': {
      const definition = definitions.get(node.identifier);
      return definition ? [inlineImage(definition.url, node.alt, definition.title)] : [];
    }
    case 'html':
      return LINE_BREAK_TAGS.has(node.value.trim().toLowerCase()) ? [text('\n', marks)] : [];
    case 'footnoteReference':
      // GitBook has no footnotes; the marker stays readable.
      return [text(`[^${node.label ?? node.identifier}]`, marks)];
    default:
      return [];
  }
}

/** A paragraph's, heading's or table cell's content as document inline content. */
export function inlineContent(children: PhrasingContent[], definitions: Definitions): DocumentInlineContent[] {
  return withoutTrailingLineBreaks(normalizeInlines(children.flatMap((child) => phrasing(child, [], definitions))));
}
