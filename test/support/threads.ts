import { KeptThreads, ownThreads, type ThreadSource } from '../../src/core/thread-source.js';
import { threadEntry } from '../../src/core/work-pool.js';

const source = new URL('../../src/', import.meta.url).href;
const built = new URL('../../dist/', import.meta.url).href;

/**
 * `threads`, except that a pool's threads start from its task module as
 * built in dist/, which the suite's setup builds (global-setup.ts), rather
 * than from TypeScript source: a conversion thread then starts on 0.9 s of a
 * core rather than 2.5, and the suite starts some hundred threads, as tasks
 * past their deadline end theirs and apps of their own start their own.
 */
function fromBuilt(threads: ThreadSource): ThreadSource {
  return {
    hold(options, onError) {
      const tasks: unknown = options.workerData?.tasks;
      const fromSource = typeof tasks === 'string' && tasks.startsWith(source) && tasks.endsWith('.ts');
      return threads.hold(
        fromSource ? { ...options, ...threadEntry(new URL(`${built}${tasks.slice(source.length, -3)}.js`)) } : options,
        onError,
      );
    },
  };
}

/** For the file's app: kept from one file's app to the next (src/core/thread-source.ts). */
export const keptBuiltThreads = fromBuilt(new KeptThreads());

/** For an app of its own that a test builds: its own threads, stopped when it closes, as a server's. */
export const ownBuiltThreads = fromBuilt(ownThreads);
