/**
 * A page's main content as markdown, on a worker thread: HTML to hast to
 * mdast to markdown, with its links and images pointed where the import puts
 * them (the batch refs of imported pages and files, absolute URLs otherwise).
 */
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { toString } from 'mdast-util-to-string';
import type { Root } from 'mdast';
import { BadRequestError } from '../../core/errors.js';
import { checkMarkdownBounds } from '../../document/bounds.js';
import { MAX_MARKDOWN_LENGTH } from '../schemas.js';
import { pageKey, resolveWebUrl } from './urls.js';

export interface MarkdownInput {
  contentHtml: string;
  /** What relative URLs of the content are relative to. */
  base: string;
  /** The batch ref of each imported page the content links to, by page key. */
  pages: Record<string, string>;
  /** The batch ref of each imported image of the content, by absolute URL. */
  images: Record<string, string>;
}

export interface PageMarkdown {
  markdown: string;
  /** The text of the content's leading top-level heading, taken out of it: the title the page shows. */
  title?: string;
}

/** Links that lead somewhere outside the page; `javascript:` and the like are kept as text only. */
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);

interface LooseNode {
  type: string;
  url?: string;
  alt?: string | null;
  value?: string;
  children?: LooseNode[];
}

function linkTarget(raw: string, input: MarkdownInput, origin: string): string | undefined {
  if (raw.startsWith('#')) return raw;
  let url: URL;
  try {
    url = new URL(raw.trim(), input.base);
  } catch {
    return undefined;
  }
  if (!LINK_PROTOCOLS.has(url.protocol)) return undefined;
  if (url.origin === origin) {
    const ref = input.pages[pageKey(url)];
    if (ref !== undefined) return `${ref}${url.hash}`;
  }
  return url.href;
}

function imageSource(raw: string, input: MarkdownInput): string | undefined {
  const url = resolveWebUrl(raw, input.base);
  return url && (input.images[url.href] ?? url.href);
}

/**
 * Points every link, image and definition of `parent`'s subtree where the
 * import puts it. A link that goes nowhere a reader can follow gives way to
 * its text; an image without a web address (an inline `data:` one), to its alt text.
 */
function rewriteUrls(parent: LooseNode, input: MarkdownInput, origin: string): void {
  const kept: LooseNode[] = [];
  for (const child of parent.children ?? []) {
    if (child.children) rewriteUrls(child, input, origin);
    if (child.type === 'link' || child.type === 'definition') {
      const url = linkTarget(child.url ?? '', input, origin);
      if (url === undefined) {
        kept.push(...(child.children ?? []));
        continue;
      }
      child.url = url;
    } else if (child.type === 'image') {
      const url = imageSource(child.url ?? '', input);
      if (url === undefined) {
        if (child.alt) kept.push({ type: 'text', value: child.alt });
        continue;
      }
      child.url = url;
    }
    kept.push(child);
  }
  parent.children = kept;
}

/** Takes a leading `# Heading` out of the content: the page shows it as its title. */
function takeLeadingTitle(root: Root): string | undefined {
  const first = root.children[0];
  if (first?.type !== 'heading' || first.depth !== 1) return undefined;
  const title = toString(first).replace(/\s+/g, ' ').trim();
  if (!title) return undefined;
  root.children.shift();
  return title;
}

export function pageMarkdown(input: MarkdownInput): PageMarkdown {
  const origin = new URL(input.base).origin;
  const tree = toMdast(fromHtml(input.contentHtml, { fragment: true }));
  const root: Root = tree.type === 'root' ? tree : { type: 'root', children: [tree] };
  rewriteUrls(root, input, origin);
  const title = takeLeadingTitle(root);
  const markdown = toMarkdown(root, { extensions: [gfmToMarkdown()] });
  if (markdown.length > MAX_MARKDOWN_LENGTH)
    throw new BadRequestError(`makes more than ${MAX_MARKDOWN_LENGTH} characters of markdown`);
  checkMarkdownBounds(markdown, 'its markdown');
  return { markdown, ...(title !== undefined ? { title } : {}) };
}
