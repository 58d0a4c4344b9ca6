import {
  poolLikeConversions,
  taskModuleBeside,
  type ConversionSettings,
  type WorkPool,
  type WorkPoolOptions,
} from '../../core/work-pool.js';
import type { ExtractedPage, ExtractInput, RobotsRules } from './extract.js';
import type { MarkdownInput, PageMarkdown } from './html-to-markdown.js';

export type { ExtractedPage, RobotsRules } from './extract.js';
export type { PageMarkdown } from './html-to-markdown.js';

const WORKER_MODULE = taskModuleBeside(import.meta.url, 'worker');

/** Time a page's parse is given for each KiB of its HTML, beyond CONVERSION_TIMEOUT_MS: a DOM and Readability cost more than markdown. */
const MS_PER_KIB = 10;

/**
 * The pool imported pages are read on, built once by the app: as many threads
 * as conversions have (CONVERSION_THREADS), the same deadline and wait.
 */
export function htmlReaderPool(
  conversion: ConversionSettings,
  onThreadError: (error: unknown) => void,
): WorkPoolOptions {
  return poolLikeConversions(WORKER_MODULE, conversion, { msPerKib: MS_PER_KIB, queuePerThread: 32 }, onThreadError);
}

/**
 * Every parse of an imported page, on the pool's threads within a deadline.
 * The HTML is bounded before it gets here (the fetch's byte limit); `field`
 * names the page in refusals.
 */
export class HtmlReader {
  /** `pool` runs htmlReaderPool's tasks. */
  constructor(private readonly pool: WorkPool) {}

  /** The page's links to follow, title, main content and the content's links and images. */
  extract(input: ExtractInput, field: string): Promise<ExtractedPage> {
    return this.pool.run('extractPage', input, { field, characters: input.html.length });
  }

  /** The main content as markdown, its links and images pointed where the import puts them. */
  markdown(input: MarkdownInput, field: string): Promise<PageMarkdown> {
    return this.pool.run('pageMarkdown', input, { field, characters: input.contentHtml.length });
  }

  /** Whether robots.txt lets the crawler have `url` (matching its rules costs up to their length times the URL's). */
  robotsAllow(robots: RobotsRules, url: string): Promise<boolean> {
    return this.pool.run('robotsAllow', { robots, url }, { field: 'robots.txt', characters: robots.text.length });
  }
}
