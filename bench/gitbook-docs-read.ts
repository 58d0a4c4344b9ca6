import { parseHTML } from 'linkedom';
import { ContentReferenceStatus } from '@gitbook/api';
import type { Clients } from './gitbook-docs-write.js';

/**
 * Reads back what was written: each page through the API (its fields and
 * markdown) and through the published site (its HTML), and the space's
 * report of broken links. Nothing here decides what was lost.
 */

export interface ReadPage {
  id: string;
  type: string;
  path: string;
  title: string;
  /** The page's own fields as the API gives them (description, icon, hidden, layout, cover …). */
  fields: Record<string, unknown>;
  markdown?: string;
  /** The published page's address, for a page the reader shows. */
  url?: string;
  status?: number;
  html?: string;
}

export interface ReadBack {
  pages: Map<string, ReadPage>;
  /** Broken link targets of the links report, per page id that uses them. */
  reportedBroken: Map<string, number>;
  reportedBrokenTotal: number;
  /** Other addresses of a page (the site's root, a guessed address), each with the page's canonical one. */
  aliases: Map<string, string>;
}

interface ApiPage {
  id: string;
  type: string;
  path?: string;
  title: string;
  pages?: ApiPage[];
  [field: string]: unknown;
}

function flatten(pages: ApiPage[] | undefined, into: ApiPage[] = []): ApiPage[] {
  for (const page of pages ?? []) {
    into.push(page);
    flatten(page.pages, into);
  }
  return into;
}

/** The address of a page in the published site: the first page is the site's root. */
export function publishedAddress(published: string, pagePath: string, first: boolean): string {
  const base = published.replace(/\/$/, '');
  return first || pagePath === '' ? base : `${base}/${pagePath.split('/').map(encodeURIComponent).join('/')}`;
}

const CANONICAL = /<link rel="canonical" href="([^"]+)"/;

/**
 * Reads a page at `address`, then at the address the reader names canonical
 * (its links lead there, and its relative links resolve from there), which
 * becomes the page's address; the first is kept as an alias of it.
 */
async function readPublished(read: ReadPage, address: string, aliases: Map<string, string>): Promise<void> {
  let response = await fetch(address);
  let html = await response.text();
  const canonical = CANONICAL.exec(html)?.[1]?.replace(/&amp;/g, '&');
  if (response.ok && canonical && canonical !== address) {
    aliases.set(address, canonical);
    response = await fetch(canonical);
    html = await response.text();
  }
  read.url = response.ok && canonical ? canonical : address;
  read.status = response.status;
  read.html = html;
}

export async function readBack(
  { client }: Clients,
  spaceId: string,
  published: string,
  log: (message: string) => void,
): Promise<ReadBack> {
  const tree = (await client.spaces.listPages(spaceId)).data.pages as unknown as ApiPage[];
  const all = flatten(tree);
  const firstDocument = all.find((page) => page.type === 'document');
  const pages = new Map<string, ReadPage>();
  const aliases = new Map<string, string>();
  for (const page of all) {
    const { pages: _children, id, type, title, path = '', ...fields } = page;
    const read: ReadPage = { id, type, path, title, fields };
    if (type === 'document') {
      const full = (await client.spaces.getPageById(spaceId, id, { format: 'markdown' })).data as unknown as {
        markdown?: string;
      };
      if (typeof full.markdown === 'string') read.markdown = full.markdown;
      await readPublished(read, publishedAddress(published, path, page === firstDocument), aliases);
    }
    pages.set(id, read);
  }
  log(`read ${pages.size} pages back, ${[...pages.values()].filter((page) => page.html).length} published`);

  const reportedBroken = new Map<string, number>();
  let reportedBrokenTotal = 0;
  let cursor: string | undefined;
  do {
    const answer = (
      await client.spaces.listSpaceLinks(spaceId, {
        status: ContentReferenceStatus.Broken,
        limit: 1000,
        ...(cursor ? { page: cursor } : {}),
      })
    ).data;
    for (const item of answer.items as unknown as Array<{ locationReferences?: Array<{ page?: { id?: string } }> }>) {
      reportedBrokenTotal++;
      for (const location of item.locationReferences ?? []) {
        const pageId = location.page?.id;
        if (pageId) reportedBroken.set(pageId, (reportedBroken.get(pageId) ?? 0) + 1);
      }
    }
    cursor = answer.next?.page;
  } while (cursor);
  return { pages, reportedBroken, reportedBrokenTotal, aliases };
}

/** What the measurement uses of linkedom's DOM, which is the DOM's in all but name (the project has no DOM types). */
export interface HtmlElement {
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): Iterable<HtmlElement>;
  cloneNode(deep: boolean): HtmlElement;
  remove(): void;
  textContent: string | null;
}

/** An HTML document, parsed. */
export function htmlDocument(html: string): HtmlElement & { body: HtmlElement } {
  return parseHTML(html).document as unknown as HtmlElement & { body: HtmlElement };
}

/** The page's own content in the published HTML: the article, without the navigation around it. */
export function articleOf(html: string) {
  const document = htmlDocument(html);
  const article = document.querySelector('#quire-content article') ?? document.querySelector('main') ?? document.body;
  return { document, article };
}

/**
 * Answers whether an address of the service answers 2xx, asking each one once:
 * images and links are checked by following them, not by their looks.
 */
export function addressChecker(origin: string) {
  const answers = new Map<string, Promise<number>>();
  return (address: string): Promise<number> => {
    if (!address.startsWith(origin)) return Promise.resolve(200); // outside the service: never fetched
    let answer = answers.get(address);
    if (!answer) {
      answer = fetch(address, { redirect: 'follow' }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
      answers.set(address, answer);
    }
    return answer;
  };
}
