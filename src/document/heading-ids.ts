import type { Html, PhrasingContent } from 'mdast';
import { HEADING_ID } from '../core/heading-anchors.js';

/** A heading's content without the anchor that gave it its id, and that id. */
export interface ExplicitHeadingId {
  id: string;
  children: PhrasingContent[];
}

/** An opening `<a …>` tag: its attributes, within a bound a real anchor never comes near. */
const OPEN_ANCHOR = /^<a((?:\s+[^\s<>]{1,300}){1,4})\s*>$/i;
const ATTRIBUTE = /^([a-z-]+)=(?:"([^"]*)"|'([^']*)')$/i;
const CLOSE_ANCHOR = /^<\/a\s*>$/i;

/**
 * The id an empty anchor gives: `id="x"`, with at most `href="#x"` beside it
 * (GitBook writes `<a href="#x" id="x"></a>`, and `<a id="x"></a>` is read as
 * well). An anchor with other attributes, or a link elsewhere, is no heading id.
 */
function anchorId(tag: string): string | undefined {
  const open = OPEN_ANCHOR.exec(tag.trim());
  if (!open) return undefined;
  const attributes = new Map<string, string>();
  for (const written of open[1]!.trim().split(/\s+/)) {
    const attribute = ATTRIBUTE.exec(written);
    if (!attribute || attributes.has(attribute[1]!.toLowerCase())) return undefined;
    attributes.set(attribute[1]!.toLowerCase(), attribute[2] ?? attribute[3]!);
  }
  const id = attributes.get('id');
  const href = attributes.get('href');
  if (id === undefined || !HEADING_ID.test(id)) return undefined;
  if ([...attributes.keys()].some((name) => name !== 'id' && name !== 'href')) return undefined;
  return href === undefined || href === `#${id}` ? id : undefined;
}

const isBlank = (node: PhrasingContent | undefined) => node?.type === 'text' && node.value.trim() === '';

/**
 * The id an author gave a heading with an empty anchor at its end, the way
 * GitBook writes one: `### Diff view <a id="diff-mode"></a>` or
 * `### Title <a href="#x" id="x"></a>`. The anchor and the space before it
 * leave the content; anywhere else an anchor is inline HTML like any other.
 */
export function explicitHeadingId(children: readonly PhrasingContent[]): ExplicitHeadingId | undefined {
  let end = children.length;
  while (isBlank(children[end - 1])) end -= 1;
  const close = children[end - 1];
  const open = children[end - 2];
  if (close?.type !== 'html' || open?.type !== 'html' || !CLOSE_ANCHOR.test(close.value.trim())) return undefined;
  const id = anchorId(open.value);
  if (id === undefined) return undefined;
  const kept = children.slice(0, end - 2);
  const last = kept.at(-1);
  if (last?.type === 'text') {
    const trimmed = last.value.trimEnd();
    if (trimmed === '') kept.pop();
    else kept[kept.length - 1] = { ...last, value: trimmed };
  }
  return { id, children: kept };
}

/** The anchor that writes a heading's id back, in the form GitBook writes it; nothing for an id it could not read. */
export function headingIdAnchor(id: unknown): Html[] {
  return typeof id === 'string' && HEADING_ID.test(id)
    ? [{ type: 'html', value: `<a href="#${id}" id="${id}"></a>` }]
    : [];
}
