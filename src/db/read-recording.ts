import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { CUSTOM_PLAN_MARKER, wrappingClients } from './prepared-pool.js';

/**
 * A read as a request ran it: its SQL, its values, and a digest of the rows
 * PostgreSQL returned, in their order, computed by PostgreSQL in the same
 * statement. Run again, the statement returns the same rows exactly when the
 * digest is the same.
 */
export interface RecordedRead {
  text: string;
  values: readonly unknown[];
  digest: string;
}

/** The reads of one request, recorded while it runs (`recordReads`). */
export class ReadRecording {
  readonly reads: RecordedRead[] = [];
  /** Why the request's reads are not worth keeping: it wrote, locked, ran a search, or a statement that could not be recorded. */
  spoiled: string | undefined;
  private open = true;

  get recording(): boolean {
    return this.open && this.spoiled === undefined;
  }

  /** Statements run from now on, by work the request left behind, are not its reads. */
  close(): void {
    this.open = false;
  }
}

const recordings = new AsyncLocalStorage<ReadRecording>();

/** Runs `work` with every statement it sends through a `recordingPool` recorded in `recording`. */
export function recordReads<T>(recording: ReadRecording, work: () => Promise<T>): Promise<T> {
  return recordings.run(recording, work);
}

/**
 * Keeps the answer of the request running from being kept: it depends on
 * something its reads do not show (`why`), such as the time. Call it outside
 * `unrecorded`.
 */
export function keepNot(why: string): void {
  const recording = recordings.getStore();
  if (recording) recording.spoiled ??= why;
}

/**
 * Runs `load` unrecorded: for reads of rows that never change once written
 * (revisions, their trees, documents), found by keys the recorded reads
 * returned. Their rows cannot differ where those keys do not, so checking
 * them again would cost without telling anything.
 */
export function unrecorded<T>(load: () => Promise<T>): Promise<T> {
  return recordings.exit(load);
}

/** Statements that only read: they start so, and name no write, row lock or function with an effect. */
const READS = /^\s*(select|with)\s/i;
const EFFECTS =
  /\b(insert\s+into|update|delete\s+from|for\s+(no\s+key\s+)?update|for\s+(key\s+)?share|nextval|setval|pg_advisory\w*|set_config|pg_notify|lo_\w+)\b/i;

const isPlainRead = (text: string) => READS.test(text) && !EFFECTS.test(text);

/**
 * How a statement's rows are digested: their text through SHA-256, in the
 * order the statement returns them when it orders them (each row numbered,
 * `$n`), or sorted when it does not. Rows a statement returns in no order
 * come in whatever order its plan gives, which changes when PostgreSQL
 * settles on a generic plan; an answer made from them cannot depend on it.
 */
function digestShape(statement: string): { rows: string; digest: string; order: string } {
  const of = (order: string) =>
    `encode(sha256(convert_to(coalesce(string_agg("$r"::text, E'\\n' order by ${order}), ''), 'UTF8')), 'base64')`;
  if (!ORDERED.test(statement)) return { rows: statement, digest: of('"$r"::text'), order: '' };
  return {
    rows: `select "$s".*, row_number() over () as "$n" from (${statement}) as "$s"`,
    digest: of('"$r"."$n"'),
    order: ' order by "$n"',
  };
}

const ORDERED = /\border\s+by\b/i;

/** The digest PostgreSQL gives a statement that returns no row. */
const EMPTY_DIGEST = createHash('sha256').update('').digest('base64');

/** `text` returning its rows as they are, with the digest of them all (`$digest`) and, if ordered, their numbers (`$n`). */
function recordingText(statement: string): string {
  const shape = digestShape(statement);
  return (
    `with "$rows" as materialized (${shape.rows}) ` +
    `select "$rows".*, (select ${shape.digest} from "$rows" as "$r") as "$digest" from "$rows"${shape.order}`
  );
}

/**
 * The statement that runs `read` again and returns only the digest of its
 * rows (`digest`): the recorded one exactly when the rows are the same. Each
 * read has its own, with the read's own parameters, so that PostgreSQL keeps
 * for it the plan it keeps for the read (one statement for all of a
 * request's reads was planned anew on every call: 2.6 ms for a comments page).
 */
export function digestStatement(read: RecordedRead): { text: string; values: readonly unknown[] } {
  const shape = digestShape(read.text);
  return { text: `select ${shape.digest} as digest from (${shape.rows}) as "$r"`, values: read.values };
}

export const joinedDigests = (reads: readonly RecordedRead[]) => reads.map((read) => read.digest).join(' ');

interface QueryResult {
  command?: string;
  rowCount?: number | null;
  rows: Record<string, unknown>[];
}

/** SQLSTATE classes of a statement PostgreSQL could not take as rewritten (42: syntax or names). */
const REWRITE_REFUSED = /^42/;

/**
 * A pool whose connections record, for a request inside `recordReads`, each
 * plain read it runs with the digest of its rows, and mark the recording
 * spoiled on anything else (a write, a transaction, a lock, a read planned
 * for each call's values). Outside a
 * recording, statements pass as they are.
 */
export function recordingPool(pool: PostgresPool): PostgresPool {
  const wrap = (client: PostgresPoolClient): PostgresPoolClient => {
    const run = client.query.bind(client) as (text: unknown, values?: readonly unknown[]) => Promise<QueryResult>;
    const query = async (text: unknown, values?: readonly unknown[]): Promise<QueryResult> => {
      const recording = recordings.getStore();
      if (!recording?.recording) return run(text, values);
      if (typeof text !== 'string' || !isPlainRead(text)) {
        recording.spoiled = typeof text === 'string' ? text.slice(0, 80) : 'a cursor';
        return run(text, values);
      }
      // Planned for each call's values (a search): checking it again would cost what running it does.
      if (text.endsWith(CUSTOM_PLAN_MARKER)) {
        recording.spoiled = `planned per call: ${text.slice(0, 80)}`;
        return run(text, values);
      }
      let result: QueryResult;
      try {
        result = await run(recordingText(text), values);
      } catch (error) {
        if (!REWRITE_REFUSED.test(String((error as { code?: unknown }).code))) throw error;
        recording.spoiled = `not recordable: ${text.slice(0, 80)}`;
        return run(text, values);
      }
      const digest = (result.rows[0]?.$digest as string | undefined) ?? EMPTY_DIGEST;
      for (const row of result.rows) {
        delete row.$n;
        delete row.$digest;
      }
      recording.reads.push({ text, values: values ? [...values] : [], digest });
      return result;
    };
    return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
  };
  return wrappingClients(pool, wrap);
}
