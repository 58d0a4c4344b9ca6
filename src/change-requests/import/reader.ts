import { WorkPool, type WorkPoolOptions } from '../../core/work-pool.js';
import type { ExtractedPage, ExtractInput, RobotsRules } from './extract.js';
import type { MarkdownInput, PageMarkdown } from './html-to-markdown.js';

export type { ExtractedPage, RobotsRules } from './extract.js';
export type { PageMarkdown } from './html-to-markdown.js';

/** The task module beside this one, in the form the service runs from (built JavaScript, or TypeScript source). */
const WORKER_MODULE = new URL(`./worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export type ReaderOptions = Omit<WorkPoolOptions, 'filename'>;

/**
 * Every parse of an imported page, on the pool's threads within a deadline.
 * The HTML is bounded before it gets here (the fetch's byte limit); `field`
 * names the page in refusals.
 */
export class HtmlReader {
  private readonly pool: WorkPool;

  constructor(options: ReaderOptions) {
    this.pool = new WorkPool({ ...options, filename: WORKER_MODULE });
  }

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

  close(): Promise<void> {
    return this.pool.close();
  }
}
