import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { DocumentColor } from '../document/types.js';
import { ownEntry, plainText, stringField } from './html-helpers.js';
import { inlineImage } from './image-html.js';
import type { MathRenderer } from './math-html.js';
import type { AnyNode, RenderContext } from './render-types.js';

const MARK_TAGS: Record<string, string> = {
  bold: 'strong',
  italic: 'em',
  strikethrough: 's',
  code: 'code',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};

/**
 * The class name of each of GitBook's colours (the site's own without their
 * `$`), which the stylesheet gives a colour for light and dark themes; a
 * colour mark becomes classes, never an inline style from the document.
 */
const COLOR_NAMES: Record<DocumentColor, string | undefined> = {
  default: undefined,
  green: 'green',
  blue: 'blue',
  red: 'red',
  orange: 'orange',
  yellow: 'yellow',
  purple: 'purple',
  $primary: 'primary',
  $info: 'info',
  $success: 'success',
  $warning: 'warning',
  $danger: 'danger',
};

/** An annotation's note is shown as its text on hover, up to this many characters. */
const MAX_NOTE_LENGTH = 500;

/** One inline node (text, link, image, formula, button, emoji ...) as HTML; an unknown one shows its content. */
export function inlineNode(context: RenderContext, math: MathRenderer, node: AnyNode): ElementContent[] {
  if (node.object === 'text') return (node.leaves ?? []).map(leafContent);
  switch (node.type) {
    case 'link': {
      const href = context.insideLink ? undefined : context.linkTarget(node.data?.ref);
      const content = context.inlines(node.nodes);
      return href ? [h('a', { href }, content)] : content;
    }
    case 'inline-image':
      return inlineImage(context, node);
    case 'inline-math':
      return [math.render(stringField(node.data, 'formula') ?? '', false)];
    case 'button':
      return [button(context, node)];
    case 'emoji':
      return emoji(stringField(node.data, 'code'));
    case 'expression':
      return [h('code.expression', stringField(node.data, 'expression') ?? '')];
    case 'mention':
      return mention(context, node);
    case 'annotation': {
      const body = node.fragments?.find(
        (fragment) => fragment.type === 'annotation-body' || fragment.fragment === 'annotation-body',
      );
      const note = body ? (body.nodes ?? []).map(plainText).join(' ').slice(0, MAX_NOTE_LENGTH) : '';
      const content = context.inlines(node.nodes);
      return note ? [h('span.annotation', { title: note }, content)] : content;
    }
    case 'icon':
      // Icons name a glyph of GitBook's icon font, which the reader does not serve: they are decoration.
      return [];
    default:
      return context.inlines(node.nodes);
  }
}

/** The classes of a colour mark's text and background colours: `text-red`, `bg-primary`; none for `default`. */
function colorClasses(data: Record<string, unknown> | undefined): string[] {
  const name = (value: unknown) => (typeof value === 'string' ? ownEntry(COLOR_NAMES, value) : undefined);
  const text = name(data?.text);
  const background = name(data?.background);
  return [...(text ? [`text-${text}`] : []), ...(background ? [`bg-${background}`] : [])];
}

interface LeafMark {
  type: string;
  data?: Record<string, unknown>;
}

/** Code innermost, the colour outermost, as GitBook's markdown writes it. */
const markDepth = (mark: LeafMark) => (mark.type === 'code' ? 0 : mark.type === 'color' ? 2 : 1);

/** A leaf's text inside its marks, code innermost and colour outermost. */
function leafContent(leaf: { text: string; marks?: LeafMark[] }): ElementContent {
  let content: ElementContent = { type: 'text', value: leaf.text };
  const marks = [...(leaf.marks ?? [])].sort((a, b) => markDepth(a) - markDepth(b));
  for (const mark of marks) {
    const tag = ownEntry(MARK_TAGS, mark.type);
    if (tag) content = h(tag, [content]);
    else if (mark.type === 'color') {
      const className = colorClasses(mark.data);
      if (className.length > 0) content = h('span', { className }, [content]);
    }
  }
  return content;
}

/** A button: a link styled as one; a button that opens search or the assistant (which need script) is its label. */
function button(context: RenderContext, node: AnyNode): ElementContent {
  const label = stringField(node.data, 'label') ?? '';
  const kind = node.data?.kind === 'secondary' ? 'secondary' : 'primary';
  const size = node.data?.size === 'small' || node.data?.size === 'large' ? [`button-${node.data.size}`] : [];
  const href = context.insideLink ? undefined : context.linkTarget(node.data?.ref);
  const className = ['button', `button-${kind}`, ...size];
  return href ? h('a', { href, className }, label) : h('span', { className }, label);
}

/** An emoji by its code points in hex (`1f680`, `1f468-200d-1f4bb`), as GitBook stores it. */
function emoji(code: string | undefined): ElementContent[] {
  if (!code || !/^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6}){0,9}$/i.test(code)) return [];
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.some((point) => point > 0x10ffff)) return [];
  return [{ type: 'text', value: String.fromCodePoint(...points) }];
}

/** A mention of a page (by its title) or an address; people and other spaces are not the reader's to name. */
function mention(context: RenderContext, node: AnyNode): ElementContent[] {
  const ref = (node.data?.ref ?? {}) as { kind?: string; page?: string; space?: string; url?: string };
  const href = context.linkTarget(ref);
  if (!href) return [];
  const title =
    ref.kind === 'page' ? ownEntry(context.input.pageTitles, `${ref.space ?? ''}/${ref.page ?? ''}`) : ref.url;
  const label = title ?? href;
  return context.insideLink ? [{ type: 'text', value: label }] : [h('a.mention', { href }, label)];
}
