import { tagOf } from './block-tags.js';
import { isolateBlockTags } from './isolate-tags.js';
import { imageRefFromUrl, refFromUrl } from './links.js';
import { parseMarkdown, visitTree } from './markdown-tree.js';

/**
 * What a page's markdown points at, apart from links.ts: reading it needs the
 * block tags, which themselves read links, so the two could not share a file
 * without an import cycle.
 */

export interface References {
  pages: string[];
  files: string[];
}

/** Ids of the pages and files the markdown links to or shows (file blocks included), each once, in order of first use. */
export function collectReferences(markdown: string): References {
  const pages = new Set<string>();
  const files = new Set<string>();
  const tree = parseMarkdown(markdown);
  isolateBlockTags(tree);
  visitTree(tree, (node) => {
    const tag = node.type === 'paragraph' ? tagOf(node) : null;
    if (tag?.kind === 'file') {
      const ref = imageRefFromUrl(tag.src);
      if (ref.kind === 'file') files.add(ref.file);
      return false;
    }
    if (node.type !== 'link' && node.type !== 'image' && node.type !== 'definition') return;
    const ref = node.type === 'image' ? imageRefFromUrl(node.url) : refFromUrl(node.url);
    if (ref.kind === 'file') files.add(ref.file);
    else if (ref.kind !== 'url' && ref.page) pages.add(ref.page);
  });
  return { pages: [...pages], files: [...files] };
}
