/**
 * The import pool's tasks: each reads a fetched page on a worker thread,
 * never on the event loop. A page that cannot be read comes back as a
 * refusal, which fails that page alone, never the import.
 */
import { serveTasks, taskOutcome } from '../../core/work-pool.js';
import { extractPage, robotsAllow } from './extract.js';
import { pageMarkdown } from './html-to-markdown.js';

/** Any failure on a stranger's HTML is that page's, not the service's. */
const outcome = <T>(work: () => T) => taskOutcome(work, () => 'could not be read as HTML');

export default serveTasks({
  extractPage: (input: Parameters<typeof extractPage>[0]) => outcome(() => extractPage(input)),
  pageMarkdown: (input: Parameters<typeof pageMarkdown>[0]) => outcome(() => pageMarkdown(input)),
  robotsAllow: (input: Parameters<typeof robotsAllow>[0]) => outcome(() => robotsAllow(input)),
});
