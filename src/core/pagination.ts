import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql, type SelectQueryBuilder } from 'kysely';
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

/** Makes and reads opaque page cursors, signed so that a tampered or foreign cursor is refused. */
export class Cursors {
  constructor(private readonly secret: string) {}

  request(list: string, query: { page?: string; limit?: number; order?: Order }): PageRequest {
    const order = query.order ?? 'desc';
    return { list, order, limit: query.limit ?? DEFAULT_PAGE_SIZE, after: query.page ? this.decode(query.page, list, order) : undefined };
  }

  encode(list: string, order: Order, key: Keyset): string {
    const payload: CursorPayload = { l: list, o: order, t: key.createdAt.toISOString(), i: key.id };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  private decode(page: string, list: string, order: Order): Keyset {
    const invalid = new BadRequestError('querystring/page is not a page cursor of this list; use next.page from the previous response');
    const [body, signature, extra] = page.split('.');
    if (!body || !signature || extra !== undefined) throw invalid;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid;
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw invalid;
    }
    const createdAt = new Date(payload.t);
    if (payload.l !== list || Number.isNaN(createdAt.getTime()) || typeof payload.i !== 'string') throw invalid;
    if (payload.o !== order) throw new BadRequestError('querystring/page was made for another order; keep the same order while paging');
    return { createdAt, id: payload.i };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }
}

/**
 * Narrows a query to the page after `request.after` and orders it by creation
 * time, ties broken by id. Fetches one extra row to learn whether a next page exists.
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  columns: { createdAt: string; id: string },
  request: PageRequest,
): SelectQueryBuilder<DB, TB, O> {
  const createdAt = sql.ref(columns.createdAt);
  const id = sql.ref(columns.id);
  let narrowed = query;
  if (request.after) {
    const { createdAt: t, id: i } = request.after;
    narrowed =
      request.order === 'desc'
        ? narrowed.where(sql<boolean>`(${createdAt}, ${id}) < (${t}, ${i})`)
        : narrowed.where(sql<boolean>`(${createdAt}, ${id}) > (${t}, ${i})`);
  }
  return narrowed
    .orderBy(createdAt, request.order)
    .orderBy(id, request.order)
    .limit(request.limit + 1);
}

/**
 * The column, added to every row of a page query, that holds the count of the
 * whole list: a scalar subquery PostgreSQL runs once, so that a page and its
 * count cost one round trip.
 */
export const TOTAL_COUNT = 'total_count';

/**
 * Builds the list envelope from a page query whose rows carry TOTAL_COUNT.
 * `count` runs only when there are no rows to read the total from.
 */
export async function paginate<Row extends { [TOTAL_COUNT]: string | number | bigint | null }, Item>(
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
  const count = rows.length > 0 ? Number(rows[0]![TOTAL_COUNT]) : await load.count();
  const hasMore = rows.length > request.limit;
  const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
  const page: Page<Item> = { count, items: pageRows.map(load.toItem) };
  if (hasMore) page.next = { page: cursors.encode(request.list, request.order, load.keyOf(pageRows.at(-1)!)) };
  return page;
}
