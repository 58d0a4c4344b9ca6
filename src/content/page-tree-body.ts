import { createHash } from 'node:crypto';
import { gzip } from 'node:zlib';
import type { ContentTree, PageState } from './tree.js';

/**
 * The body of a page-tree read, `{"pages":[…]}`, as the bytes sent. It is
 * made once per revision and place; the gzip form is compressed off the event
 * loop and served once it is ready.
 */
export interface PageTreeBody {
  json: Buffer;
  gzip: Buffer | undefined;
  /** Weak: the bytes differ between the plain and gzip forms, the content does not. */
  etag: string;
}

export const PAGES_PREFIX = '{"pages":';

/**
 * Joins each page's own fields (`fragmentOf`: its JSON object without the
 * closing brace) with its subpages into the tree's JSON, top-level pages in
 * their order.
 */
export function composePageTree(
  tree: ContentTree,
  fragmentOf: (page: PageState) => string,
  cacheKey: string,
  /** A page's whole JSON, subpages included, where something else makes them (a computed page's expansion). */
  wholeOf: (page: PageState) => string | undefined = () => undefined,
): PageTreeBody {
  const parts: string[] = [PAGES_PREFIX];
  const walk = (parentId: string | null) => {
    parts.push('[');
    tree.childrenOf(parentId).forEach((page, index) => {
      if (index > 0) parts.push(',');
      const whole = wholeOf(page);
      if (whole !== undefined) {
        parts.push(whole);
        return;
      }
      // A link page has no subpages, and no `pages` to show.
      if (page.type === 'link') {
        parts.push(fragmentOf(page), '}');
        return;
      }
      parts.push(fragmentOf(page), ',"pages":');
      walk(page.pageId);
      parts.push('}');
    });
    parts.push(']');
  };
  walk(null);
  parts.push('}');
  const body: PageTreeBody = {
    json: Buffer.from(parts.join('')),
    gzip: undefined,
    etag: `W/"${createHash('sha256').update(cacheKey).digest('base64url').slice(0, 27)}"`,
  };
  gzip(body.json, (error, compressed) => {
    // Without the compressed form the plain one is served: nothing to report.
    if (!error) body.gzip = compressed;
  });
  return body;
}

/** The JSON array of the pages alone, out of a page-tree body. */
export function pagesArrayOf(body: PageTreeBody): Buffer {
  return body.json.subarray(PAGES_PREFIX.length, body.json.length - 1);
}
