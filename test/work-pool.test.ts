import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { Conversions } from '../src/conversions/pool.js';
import { ApiError } from '../src/core/errors.js';
import { LazyTask, serveTasks, type TaskOutcome } from '../src/core/work-pool.js';
import { markdownToDocument } from '../src/document/from-markdown.js';
import { ownBuiltThreads } from './support/threads.js';

/** Within every markdown limit, but about a second of parsing on this kind of machine. */
const SLOW = '> quote\n\n'.repeat(1_990);

function conversions(
  overrides: { threads?: number; timeoutMs?: number; maxQueue?: number; queueWaitMs?: number } = {},
) {
  const errors: unknown[] = [];
  const pool = new Conversions({
    threads: 1,
    timeoutMs: 5_000,
    msPerKib: 0,
    maxQueue: 8,
    onThreadError: (error) => errors.push(error),
    // Started from dist/, as the app's in other tests (./support/threads.ts): 0.9 s of a core each rather than 2.5.
    threadSource: ownBuiltThreads,
    ...overrides,
  });
  return { pool, errors };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the conversion pool', () => {
  it('converts on its threads what the event loop would have parsed', async () => {
    const { pool, errors } = conversions();
    try {
      expect(JSON.parse(await pool.toDocumentJson('# Title\n\nSome *text*.', 'body'))).toMatchObject({
        object: 'document',
        nodes: [{ type: 'heading-1' }, { type: 'paragraph' }],
      });
      expect(await pool.readPage('---\ntitle: From matter\n---\n# Heading\n\n[a](./b.md)', 'page')).toEqual({
        frontmatter: { title: 'From matter' },
        markdown: '# Heading\n\n[a](./b.md)',
        destinations: [{ url: './b.md', kind: 'link', start: 15, end: 21 }],
      });
      const document = JSON.parse(await pool.toDocumentJson('A **bold** move.', 'body'));
      expect(await pool.toMarkdown(document, 'body')).toBe('A **bold** move.\n');
      expect(errors).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('answers refusals, of the limits or of the parser, as 400s naming the input', async () => {
    const { pool } = conversions();
    try {
      const yaml = await refusal(pool.readPage('---\ntitle: [unclosed\n---\nbody', 'body/changes/0/document'));
      expect(yaml.statusCode).toBe(400);
      expect(yaml.message).toMatch(/^body\/changes\/0\/document: document frontmatter is not valid YAML/);
      const deep = await refusal(pool.toDocumentJson('>'.repeat(40), 'body/body'));
      expect(deep.message).toMatch(/^body\/body nests too deeply/);
    } finally {
      await pool.close();
    }
  });

  it('answers 503 with Retry-After when its queue is full, and serves again once it drains', async () => {
    // A deadline far past the slow task's second: a loaded machine must not stop it, which is another test.
    const { pool } = conversions({ maxQueue: 1, timeoutMs: 60_000 });
    try {
      await pool.toDocumentJson('warm', 'warm-up'); // the thread is started and free
      const running = pool.toDocumentJson(SLOW, 'running');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const queued = pool.toDocumentJson('queued', 'queued');
      const busy = await refusal(pool.toDocumentJson('refused', 'refused'));
      expect(busy.statusCode).toBe(503);
      expect(busy.headers).toEqual({ 'retry-after': '1' });
      await Promise.all([running, queued]);
      expect(JSON.parse(await pool.toDocumentJson('served', 'served')).nodes).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it("answers 503 to a task that waits for a thread longer than its queue wait, the thread's start included", async () => {
    // No thread starts within a millisecond: the wait is what is refused, not a full queue.
    const { pool } = conversions({ queueWaitMs: 1 });
    try {
      const busy = await refusal(pool.toDocumentJson('waiting', 'waiting'));
      expect(busy.statusCode).toBe(503);
      expect(busy.headers).toEqual({ 'retry-after': '1' });
    } finally {
      await pool.close();
    }
  });

  it('stops a task past its deadline, counted from when it starts, and replaces its thread', async () => {
    const { pool } = conversions({ timeoutMs: 150 });
    try {
      // The thread's start is not the task's time.
      expect(JSON.parse(await pool.toDocumentJson('first', 'first')).nodes).toHaveLength(1);
      // Only a stop refuses a task this way: one left to run its second would have answered.
      const stopped = await refusal(pool.toDocumentJson(SLOW, 'body/body'));
      expect(stopped.statusCode).toBe(400);
      expect(stopped.message).toBe(
        'body/body took longer than 150 ms to read and was stopped: it is too large or too complex',
      );
      expect(JSON.parse(await pool.toDocumentJson('after', 'after')).nodes).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it('renders HTML on a thread whose first task it is: the renderer is loaded by the task that needs it', async () => {
    const { pool, errors } = conversions();
    try {
      const document = markdownToDocument('# Title\n\n```js\nconst a = 1;\n```');
      const rendered = await pool.toHtml({ document, pages: {}, files: {} }, 'page');
      expect(rendered.html).toContain('<h2 id="title">Title');
      expect(rendered.html).toContain('hljs-keyword');
      expect(rendered.headings).toMatchObject([{ title: 'Title' }]);
      expect(errors).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});

describe('a task module', () => {
  it('loads a lazy task once, on its first run, and says the task started only once it is loaded', async () => {
    const events: string[] = [];
    const served = serveTasks({
      late: new LazyTask(async () => {
        events.push('loaded');
        return (data: number): TaskOutcome<number> => ({ ok: true, value: data * 2 });
      }),
    });
    for (const data of [1, 2]) {
      const { port1, port2 } = new MessageChannel();
      const started = once(port1, 'message').then(() => events.push(`started ${data}`));
      const outcome = await served({ task: 'late', data, started: port2 });
      await started;
      port1.close();
      expect(outcome).toEqual({ ok: true, value: data * 2 });
    }
    expect(events).toEqual(['loaded', 'started 1', 'started 2']);
    const { port2 } = new MessageChannel();
    await expect(served({ task: 'missing', data: 0, started: port2 })).rejects.toThrow(
      'No task missing in this module',
    );
  });
});
