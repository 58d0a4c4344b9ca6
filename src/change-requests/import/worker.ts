/**
 * The import pool's tasks: each reads a fetched page on a worker thread,
 * never on the event loop. A page that cannot be read comes back as a
 * refusal, which fails that page alone, never the import.
 */
import { ApiError } from '../../core/errors.js';
import { serveTasks, type TaskOutcome } from '../../core/work-pool.js';
import { extractPage, robotsAllow } from './extract.js';
import { pageMarkdown } from './html-to-markdown.js';

function outcome<T>(work: () => T): TaskOutcome<T> {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) return { ok: false, refused: error.message };
    // The parsers' and converters' own tree walks recurse; past the stack they fail with a RangeError.
    if (error instanceof RangeError) return { ok: false, refused: 'nests too deeply to be read' };
    // Any other failure on a stranger's HTML is that page's, not the service's.
    return { ok: false, refused: 'could not be read as HTML' };
  }
}

export default serveTasks({
  extractPage: (input: Parameters<typeof extractPage>[0]) => outcome(() => extractPage(input)),
  pageMarkdown: (input: Parameters<typeof pageMarkdown>[0]) => outcome(() => pageMarkdown(input)),
  robotsAllow: (input: Parameters<typeof robotsAllow>[0]) => outcome(() => robotsAllow(input)),
});
