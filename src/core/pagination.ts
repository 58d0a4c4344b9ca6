import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { Database } from '../db/types.js';
import { BadRequestError } from './errors.js';

export const DEFAULT_PAGE_SIZE = 50;

export type Order = 'asc' | 'desc';

/** The position of the last item of a page: its creation time and id. */
export interface Keyset {
  createdAt: Date;
  id: string;
}

export interface PageRequest {
  /** Names the list and its filters; a cursor is only accepted by the list that made it. */
  list: string;
  order: Order;
  limit: number;
  after: Keyset | undefined;
}

export interface Page<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

interface CursorPayload {
  l: string;
  o: Order;
  t: string;
  i: string;
}

const invalidCursor = () =>
  new BadRequestError('querystring/page is not a page cursor of this list; use next.page from the previous response');

/** Makes and reads opaque page cursors, signed so that a tampered or foreign cursor is refused. */
export class Cursors {
  constructor(private readonly secret: string) {}

  request(list: string, query: { page?: string; limit?: number; order?: Order }): PageRequest {
    const order = query.order ?? 'desc';
    return {
      list,
      order,
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      after: query.page ? this.decode(query.page, list, order) : undefined,
    };
  }

  encode(list: string, order: Order, key: Keyset): string {
    const payload: CursorPayload = { l: list, o: order, t: key.createdAt.toISOString(), i: key.id };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** A cursor at any position given as strings, for a list not ordered by creation time (search results by rank). */
  encodePosition(list: string, position: readonly string[]): string {
    const body = Buffer.from(JSON.stringify({ l: list, p: position })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The position a cursor of `encodePosition` holds: `size` strings, or a 400. */
  decodePosition(page: string, list: string, size: number): string[] {
    const payload = this.verified<{ l?: unknown; p?: unknown }>(page);
    const position = payload.p;
    if (
      payload.l !== list ||
      !Array.isArray(position) ||
      position.length !== size ||
      !position.every((part) => typeof part === 'string')
    )
      throw invalidCursor();
    return position;
  }

  /** The payload of a cursor this service signed, or a 400. */
  private verified<T>(page: string): T {
    const [body, signature, extra] = page.split('.');
    if (!body || !signature || extra !== undefined) throw invalidCursor();
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    } catch {
      throw invalidCursor();
    }
  }

  private decode(page: string, list: string, order: Order): Keyset {
    const invalid = invalidCursor();
    const payload = this.verified<CursorPayload>(page);
    const createdAt = new Date(payload.t);
    if (payload.l !== list || Number.isNaN(createdAt.getTime()) || typeof payload.i !== 'string') throw invalid;
    if (payload.o !== order)
      throw new BadRequestError('querystring/page was made for another order; keep the same order while paging');
    return { createdAt, id: payload.i };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }
}

/**
 * Orders a query by creation time, ties broken by id, narrows it to the rows
 * after `after`, and fetches `fetch` rows (one more than the page, to learn
 * whether a next page exists).
 */
function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  columns: { createdAt: string; id: string },
  order: Order,
  after: { createdAt: unknown; id: unknown } | undefined,
  fetch: unknown,
): SelectQueryBuilder<DB, TB, O> {
  const createdAt = sql.ref(columns.createdAt);
  const id = sql.ref(columns.id);
  let narrowed = query;
  if (after) {
    const position = sql`(${after.createdAt}::timestamptz, ${after.id})`;
    narrowed = narrowed.where(
      order === 'desc'
        ? sql<boolean>`(${createdAt}, ${id}) < ${position}`
        : sql<boolean>`(${createdAt}, ${id}) > ${position}`,
    );
  }
  return narrowed
    .orderBy(createdAt, order)
    .orderBy(id, order)
    .limit(typeof fetch === 'number' ? sql.lit(fetch) : (fetch as number));
}

/**
 * How many rows a page query with a fixed fetch size fetches for a page of
 * `limit`: the least of a few sizes that holds the page and one more row.
 */
const FETCH_SIZES = [1, 2, 6, 11, 21, 51, 101, 201, 501, 1001] as const;
const fetchSize = (limit: number) => FETCH_SIZES.find((size) => size > limit) ?? limit + 1;

export interface PageQueryOptions<Out> {
  /**
   * Write the number of rows to fetch into the SQL, one of a few sizes,
   * instead of binding it. A bound `LIMIT $n` is costed at a tenth of the
   * table, so PostgreSQL never keeps a generic plan and plans every call for
   * its values; with the size written in, it keeps one plan per statement.
   * Only for a query whose best plan is the same whatever its arguments (an
   * index that both filters and orders it): a generic plan does not know
   * which organization or filter value it reads, and an organization of one
   * member and one of 50,000 want different plans for most lists.
   */
  fixedFetch?: boolean;
  /**
   * Reads the rows of a page whose `build` query selects only keys: the
   * cursor, order and limit apply to the keys, and `rowsOf` reads the row of
   * each one, in the same order. For a list whose keys can be sorted without
   * its rows (a guest's reached spaces), so that only the page's rows are read.
   */
  rowsOf?: (db: Kysely<Database>, keys: AnyQuery<unknown>, order: Order, ...args: never[]) => AnyQuery<Out>;
}

/** A query over any tables: a page query's builder may add CTEs and subqueries of its own. */
/**
 * The condition that keeps the rows after a page's cursor, ordered by
 * `createdAt` then `id` (column references, e.g. `ci.created_at`); undefined
 * on a first page. For queries `pageQuery` cannot compile ahead.
 */
export function keysetAfter(page: PageRequest, createdAt: string, id: string) {
  if (!page.after) return undefined;
  const position = sql`(${page.after.createdAt.toISOString()}::timestamptz, ${page.after.id})`;
  return page.order === 'desc'
    ? sql<boolean>`(${sql.ref(createdAt)}, ${sql.ref(id)}) < ${position}`
    : sql<boolean>`(${sql.ref(createdAt)}, ${sql.ref(id)}) > ${position}`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery<O> = SelectQueryBuilder<any, any, O>;

/**
 * A keyset-paginated list query, compiled once per shape (order, first page or
 * after a cursor, and the fetch size if fixed) like `precompiled`. `build`
 * makes the filtered, selected query; ordering, the cursor condition and the
 * limit are added here. It returns at most `request.limit + 1` rows.
 */
export function pageQuery<Args extends unknown[], Row, Out = Row>(
  columns: { createdAt: string; id: string },
  // `any` database type: the builder may add CTEs to it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  build: (db: Kysely<Database>, ...args: Args) => SelectQueryBuilder<any, any, Row>,
  /** How many arguments follow `db`; by default, as many as `build` declares. */
  arity: number = build.length - 1,
  options: PageQueryOptions<Out> = {},
): (db: Db, request: PageRequest, ...args: Args) => Promise<Out[]> {
  const variants = new Map<string, (db: Db, ...parameters: unknown[]) => Promise<Out[]>>();
  return async (db, request, ...args) => {
    const fetch = options.fixedFetch ? fetchSize(request.limit) : undefined;
    const shape = `${request.order}:${request.after ? 'after' : 'first'}:${fetch ?? 'bound'}`;
    let run = variants.get(shape);
    if (!run) {
      const withCursor = request.after !== undefined;
      run = precompiled<unknown[], Out>(
        (compiler, ...parameters: unknown[]) => {
          const [createdAt, id] = parameters.slice(arity);
          const query = build(compiler, ...(parameters.slice(0, arity) as Args));
          const after = withCursor ? { createdAt, id } : undefined;
          const keys = keysetPage(query, columns, request.order, after, fetch ?? parameters.at(-1));
          if (options.rowsOf)
            return options.rowsOf(compiler, keys, request.order, ...(parameters.slice(0, arity) as never[]));
          // Without rowsOf, Out is Row (its default): the keys are the rows. The compiler cannot tell.
          // oxlint-disable-next-line typescript/no-unnecessary-type-assertion
          return keys as unknown as AnyQuery<Out>;
        },
        arity + (withCursor ? 2 : 0) + (fetch === undefined ? 1 : 0),
      );
      variants.set(shape, run);
    }
    const keyset = request.after ? [request.after.createdAt.toISOString(), request.after.id] : [];
    if (fetch === undefined) return run(db, ...args, ...keyset, request.limit + 1);
    const rows = await run(db, ...args, ...keyset);
    return rows.length > request.limit + 1 ? rows.slice(0, request.limit + 1) : rows;
  };
}

/**
 * The column, added to every row of a page query, that holds the count of the
 * whole list: a scalar subquery PostgreSQL runs once, so that a page and its
 * count cost one round trip.
 */
export const TOTAL_COUNT = 'total_count';

/**
 * Builds the list envelope from a page query. The total comes from the rows'
 * TOTAL_COUNT when the query carries it; else, on a first page that is not
 * full, it is the number of rows; `count` runs only when neither tells.
 */
export async function paginate<Row extends { [TOTAL_COUNT]?: string | number | bigint | null }, Item>(
  cursors: Cursors,
  request: PageRequest,
  load: {
    rows: () => Promise<Row[]>;
    count: () => Promise<number>;
    keyOf: (row: Row) => Keyset;
    toItem: (row: Row) => Item;
  },
): Promise<Page<Item>> {
  const rows = request.limit === 0 ? [] : await load.rows();
  const hasMore = rows.length > request.limit;
  const carried = rows[0]?.[TOTAL_COUNT];
  const count =
    carried !== undefined && carried !== null
      ? Number(carried)
      : request.after === undefined && !hasMore && request.limit > 0
        ? rows.length
        : await load.count();
  const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
  const page: Page<Item> = { count, items: pageRows.map(load.toItem) };
  if (hasMore) page.next = { page: cursors.encode(request.list, request.order, load.keyOf(pageRows.at(-1)!)) };
  return page;
}
