import { sql, type RawBuilder } from 'kysely';
import { BadRequestError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { COLUMNS, type ValueKind } from './columns.js';
import type {
  AggregateEventsBody,
  AggregationResult,
  ColumnName,
  QueryColumn,
  QueryFilter,
  TimeInterval,
} from './schemas.js';

const DAY_MS = 86_400_000;
const PRESET_DAYS = { last24Hours: 1, last7Days: 7, last30Days: 30, last3Months: 90, lastYear: 365 } as const;

/** One column of the answer: what it shows, and whether it is grouped on or counted. */
interface Output {
  column: ColumnName;
  interval: TimeInterval | undefined;
  expression: RawBuilder<unknown>;
  grouped: boolean;
  /** What the query groups on for it: its plain columns where it is built from them, else its alias. */
  groupColumns?: readonly string[];
}

/** The query's time range, `[from, to)`. */
export function rangeOf(range: AggregateEventsBody['range'], now: Date): { from: Date; to: Date } {
  if (typeof range === 'string') return { from: new Date(now.getTime() - PRESET_DAYS[range] * DAY_MS), to: now };
  const from = new Date(range.from);
  const to = new Date(range.to);
  if (!(from < to)) throw new BadRequestError('body/range/from must be before body/range/to');
  return { from, to };
}

const keyOf = (column: QueryColumn) =>
  `${column.column}:${column.column === 'datetime' ? (column.interval ?? 'day') : ''}`;

function recorded(column: QueryColumn, path: string) {
  const spec = COLUMNS[column.column];
  if (spec.role === 'unrecorded')
    throw new BadRequestError(`${path} ${column.column} is not recorded here: ${spec.why}`);
  return spec;
}

/** The answer's columns: the grouped ones first, then the selected ones (eventsCount when none is). */
function outputsOf(body: AggregateEventsBody): Output[] {
  const outputs = new Map<string, Output>();
  const add = (column: QueryColumn, path: string, grouped: boolean) => {
    const spec = recorded(column, path);
    if (grouped && spec.role === 'metric')
      throw new BadRequestError(`${path} ${column.column} is a count: it can be selected, not grouped by`);
    const key = keyOf(column);
    if (outputs.has(key)) return;
    const interval = column.column === 'datetime' ? (column.interval ?? 'day') : undefined;
    outputs.set(key, {
      column: column.column,
      interval,
      expression: spec.role === 'metric' ? spec.expression : spec.expression(interval),
      grouped: spec.role === 'dimension',
      ...(spec.role === 'dimension' && spec.groupColumns ? { groupColumns: spec.groupColumns } : {}),
    });
  };
  (body.groupBy ?? []).forEach((column, index) => add(column, `body/groupBy/${index}`, true));
  const select = body.select?.length ? body.select : [{ column: 'eventsCount' as const }];
  select.forEach((column, index) => add(column, `body/select/${index}`, false));
  return [...outputs.values()];
}

function checkValue(kind: ValueKind, value: unknown, path: string): unknown {
  const fail = (rule: string) => new BadRequestError(`${path} ${rule}`);
  switch (kind.kind) {
    case 'string':
      if (value === null && kind.nullable) return null;
      if (typeof value !== 'string' || value.length > 2048) throw fail('must be a string of at most 2048 characters');
      if (kind.allowed && !kind.allowed.includes(value))
        throw fail(`must be equal to one of the allowed values: ${kind.allowed.join(', ')}`);
      return value;
    case 'integer':
      if (!Number.isInteger(value) || (value as number) < kind.min || (value as number) > kind.max)
        throw fail(`must be an integer from ${kind.min} to ${kind.max}`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('must be a number');
      return value;
    case 'timestamp':
      if (typeof value !== 'string' || value.length > 64 || Number.isNaN(Date.parse(value)))
        throw fail('must be a date-time');
      return new Date(value);
    case 'boolean':
      if (value !== null && typeof value !== 'boolean') throw fail('must be a boolean or null');
      return value;
    case 'page': {
      if (value === null) return null;
      const page: { page?: unknown; space?: unknown } | undefined = typeof value === 'object' ? value : undefined;
      if (
        page === undefined ||
        typeof page.space !== 'string' ||
        page.space.length > 128 ||
        (page.page !== null && (typeof page.page !== 'string' || page.page.length > 128))
      )
        throw fail('must be null or an object with `space` and `page` (a page id or null)');
      return { space: page.space, page: page.page };
    }
  }
}

/** A filter as SQL: membership (null matching null) or one comparison. */
function condition(expression: RawBuilder<unknown>, kind: ValueKind, filter: QueryFilter, path: string) {
  const values = filter.values.map((value, index) => checkValue(kind, value, `${path}/values/${index}`));
  const operator = filter.operator ?? 'in';
  if (operator !== 'in' && operator !== 'notIn') {
    if (values.length !== 1 || values[0] === null || !['integer', 'number', 'timestamp'].includes(kind.kind))
      throw new BadRequestError(`${path} ${operator} compares a time, an hour, a day or a count with one value`);
    const sign = { greaterThan: '>', greaterThanOrEqual: '>=', lessThan: '<', lessThanOrEqual: '<=' }[operator];
    return sql<boolean>`${expression} ${sql.raw(sign)} ${values[0]}`;
  }
  const matches: RawBuilder<unknown>[] = [];
  if (kind.kind === 'page') {
    for (const value of values as Array<{ space: string; page: string | null } | null>) {
      matches.push(
        value === null
          ? sql`space_id is null`
          : sql`(space_id = ${value.space} and page_id is not distinct from ${value.page})`,
      );
    }
  } else {
    const present = values.filter((value) => value !== null);
    if (present.length > 0) matches.push(sql`${expression} in (${sql.join(present)})`);
    if (present.length < values.length) matches.push(sql`${expression} is null`);
  }
  const any = matches.length > 0 ? sql`coalesce(${sql.join(matches, sql` or `)}, false)` : sql`false`;
  return operator === 'in' ? sql<boolean>`${any}` : sql<boolean>`not ${any}`;
}

/**
 * The spec's aggregation over one site's events in a range: grouped columns
 * and counts, each answered as a column of values (the rows read across).
 * One statement, on the (organization, site, time) index.
 */
export async function aggregateEvents(
  db: Db,
  organizationId: string,
  siteId: string,
  body: AggregateEventsBody,
  range: { from: Date; to: Date },
): Promise<AggregationResult> {
  const outputs = outputsOf(body);
  let query = db
    .selectFrom('site_insight_events')
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .where('occurred_at', '>=', range.from)
    .where('occurred_at', '<', range.to);
  const having: RawBuilder<boolean>[] = [];
  (body.where ?? []).forEach((filter, index) => {
    const path = `body/where/${index}`;
    const spec = recorded(filter, path);
    if (spec.role === 'metric') {
      if (filter.column === 'pageFeedbackRating')
        throw new BadRequestError(`${path} pageFeedbackRating counts three ratings: filter on eventPageFeedbackRating`);
      having.push(condition(spec.expression, spec.values, filter, path));
    } else {
      const expression = spec.filterExpression ?? spec.expression(undefined);
      const where = condition(expression, spec.values, filter, path);
      query = query.where(() => where);
    }
  });
  const aliases = outputs.map((_, index) => `c${index}`);
  let select = query.select(outputs.map((output, index) => output.expression.as(aliases[index]!)));
  const grouped = outputs.flatMap((output, index) =>
    output.grouped ? (output.groupColumns ?? [aliases[index]!]).map((name) => sql.ref(name)) : [],
  );
  if (grouped.length > 0) select = select.groupBy(grouped);
  for (const condition of having) select = select.having(() => condition);
  for (const [alias, direction] of orderOf(body, outputs, aliases))
    select = select.orderBy(sql`${sql.ref(alias)} ${sql.raw(direction)} nulls last`);
  const rows = (await select.limit(body.limit ?? 1000).execute()) as Array<Record<string, unknown>>;
  return {
    columns: outputs.map((output, index) => ({
      column: output.column,
      values: rows.map((row) => {
        const value = row[aliases[index]!];
        return value instanceof Date ? value.toISOString() : value;
      }),
    })),
  };
}

/** The order asked for (of a column of the answer), then time-like groups first, then the first count, largest first. */
function orderOf(body: AggregateEventsBody, outputs: Output[], aliases: string[]): Array<[string, 'asc' | 'desc']> {
  const order: Array<[string, 'asc' | 'desc']> = [];
  const indexOf = (column: QueryColumn) =>
    outputs.findIndex((output) => keyOf({ column: output.column, interval: output.interval }) === keyOf(column));
  if (body.order) {
    const index = indexOf(body.order.by);
    if (index < 0) throw new BadRequestError('body/order/by must be a column the query selects or groups by');
    order.push([aliases[index]!, body.order.direction]);
  }
  const timeLike = new Set<ColumnName>(['datetime', 'dayOfWeek', 'hourOfDay']);
  outputs.forEach((output, index) => {
    if (output.grouped && timeLike.has(output.column)) order.push([aliases[index]!, 'asc']);
  });
  const count = outputs.findIndex((output) => !output.grouped && output.column !== 'pageFeedbackRating');
  if (count >= 0) order.push([aliases[count]!, 'desc']);
  outputs.forEach((output, index) => {
    if (output.grouped) order.push([aliases[index]!, 'asc']);
  });
  const seen = new Set<string>();
  return order.filter(([alias]) => !seen.has(alias) && seen.add(alias) !== undefined);
}
