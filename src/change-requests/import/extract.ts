/**
 * What the crawler reads of one HTML page, on a worker thread: the links it
 * may follow (from the whole page, navigation included), and the page's main
 * content as Readability finds it, with the links and images in it.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import robotsModule from 'robots-parser';
import { pageKey, resolveWebUrl } from './urls.js';

interface RobotsFile {
  isAllowed(url: string, agent?: string): boolean | undefined;
}
type ParseRobots = (url: string, text: string) => RobotsFile;
/**
 * robots-parser is CommonJS whose types declare an ES default export: Node
 * gives ES modules its `module.exports`, the parser itself, where the types
 * under NodeNext expect it under `default`. Either way, the function.
 */
const loadedRobots: unknown = robotsModule;
const robotsParser: ParseRobots = (loadedRobots as { default?: ParseRobots }).default ?? (loadedRobots as ParseRobots);

/** The robots.txt of the site being crawled, as fetched. */
export interface RobotsRules {
  url: string;
  text: string;
}

/** The product token robots.txt groups name this crawler by. */
export const ROBOTS_AGENT = 'Quire';

export interface ExtractInput {
  html: string;
  /** The page's URL, after redirects. */
  url: string;
  /** null: the site has no robots.txt, and every page may be crawled. */
  robots: RobotsRules | null;
}

export interface ExtractedPage {
  /** Whether robots.txt lets the crawler have this page (it may have been reached by a redirect). */
  allowed: boolean;
  title: string;
  /** The main content, as HTML. */
  contentHtml: string;
  /** What relative URLs of the content are relative to: the page's URL, or its `<base href>`. */
  base: string;
  /** URLs of the site's pages the page links to that robots.txt allows, in the page's order, without query or fragment. */
  links: string[];
  /** Keys of the site's pages the main content links to. */
  contentLinks: string[];
  /** Absolute URLs of the main content's images, in order. */
  images: string[];
}

/** Enough for any real navigation; a page listing more is not a map of the site to follow whole. */
const MAX_LINKS = 2_000;
const MAX_IMAGES = 200;
/** Readability gives up past this many elements; the worker's deadline bounds the rest. */
const MAX_ELEMENTS = 100_000;

interface Element {
  getAttribute(name: string): string | null;
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): Iterable<Element>;
  textContent: string | null;
  innerHTML: string;
}

/** Readability's result as the element it is, rather than serialised, so its links and images can be read. */
const asElement = (node: unknown) => node as Element;

const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The distinct values `read` gives the elements, in order, up to `max`. */
function collect(elements: Iterable<Element>, read: (element: Element) => string | undefined, max: number): string[] {
  const found = new Set<string>();
  for (const element of elements) {
    const value = read(element);
    if (value !== undefined) found.add(value);
    if (found.size >= max) break;
  }
  return [...found];
}

/**
 * The page's title: Readability's (its `<title>`, cleaned), or the page's
 * first heading where the title is that heading plus the site's name
 * ("Install | Acme Docs"); the heading where there is no title.
 */
function pickTitle(readable: string, documentTitle: string, heading: string): string {
  if (heading && readable.toLowerCase().includes(heading.toLowerCase())) return heading;
  return readable || documentTitle || heading;
}

export function extractPage(input: ExtractInput): ExtractedPage {
  const { document } = parseHTML(input.html) as unknown as { document: Element & { body: Element | null } };
  const origin = new URL(input.url).origin;
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  const base = (baseHref && resolveWebUrl(baseHref, input.url)?.href) || input.url;
  const robots = input.robots && robotsParser(input.robots.url, input.robots.text);
  /** Whether robots.txt allows the path of `url`, as the crawler fetches it: without query or fragment. */
  const allows = (url: URL) => !robots || robots.isAllowed(`${origin}${url.pathname}`, ROBOTS_AGENT) !== false;
  const sitePage = (element: Element) => {
    const url = resolveWebUrl(element.getAttribute('href') ?? '', base);
    return url && url.origin === origin ? url : undefined;
  };
  const siteKey = (element: Element) => {
    const url = sitePage(element);
    return url && pageKey(url);
  };

  // Readability rewrites the document, so what it drops (navigation) is read first.
  const links = collect(
    document.querySelectorAll('a[href]'),
    (element) => {
      const url = sitePage(element);
      return url && allows(url) ? `${origin}${url.pathname}` : undefined;
    },
    MAX_LINKS,
  );
  const heading = clean(document.querySelector('h1')?.textContent);
  const documentTitle = clean(document.querySelector('title')?.textContent);

  let article: ReturnType<Readability<Element>['parse']> = null;
  try {
    // Readability types its input as the DOM's Document, which linkedom's is in all but name.
    article = new Readability<Element>(document as unknown as ConstructorParameters<typeof Readability>[0], {
      keepClasses: true, // code blocks' language-* classes name their language
      maxElemsToParse: MAX_ELEMENTS,
      serializer: asElement,
    }).parse();
  } catch {
    // A page Readability cannot read is taken whole, below.
  }
  const content = article?.content ?? document.querySelector('main, article') ?? document.body;
  const images = content
    ? collect(
        content.querySelectorAll('img[src]'),
        (element) => resolveWebUrl(element.getAttribute('src') ?? '', base)?.href,
        MAX_IMAGES,
      )
    : [];
  return {
    allowed: allows(new URL(input.url)),
    title: pickTitle(clean(article?.title), documentTitle, heading),
    contentHtml: content?.innerHTML ?? '',
    base,
    links,
    contentLinks: content ? collect(content.querySelectorAll('a[href]'), siteKey, MAX_LINKS) : [],
    images,
  };
}

/** Whether robots.txt lets the crawler have `url`. */
export function robotsAllow(input: { robots: RobotsRules; url: string }): boolean {
  return robotsParser(input.robots.url, input.robots.text).isAllowed(input.url, ROBOTS_AGENT) !== false;
}
