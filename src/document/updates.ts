import { choiceAttribute, tagLine, type TagAttributes } from './tag-attributes.js';
import type { ContentRefTag, DocumentBlockUpdates, DocumentUpdateChild, UpdatesFormat } from './types.js';

/**
 * Changelogs: `{% updates format="full" %}`, then for each entry `{% update
 * date="2025-12-25" tags="beta" %}`, its content and `{% endupdate %}`, then
 * `{% endupdates %}`. The spec's date is a date-time: a day is its midnight
 * UTC, and is written back as the day.
 */

const FORMATS: readonly UpdatesFormat[] = ['numeric', 'full', 'short'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const MIDNIGHT = 'T00:00:00.000Z';

export interface UpdateOptions {
  date: string;
  tags: string[];
}

/** A bare `{% updates %}` shows full dates, the spec's default. */
export function readUpdatesTag(attributes: TagAttributes): { format: UpdatesFormat } | null {
  const format = choiceAttribute(attributes, 'format', FORMATS);
  return format === null ? null : { format: format ?? 'full' };
}

/** The date as an RFC 3339 date-time, or null when it is no real day or time. */
function dateTimeOf(date: string): string | null {
  const dateTime = DAY.test(date) ? `${date}${MIDNIGHT}` : DATE_TIME.test(date) ? date : null;
  // `2025-02-30` has the shape and no day; JavaScript would roll it over to March.
  if (dateTime === null || Number.isNaN(Date.parse(dateTime))) return null;
  return new Date(Date.parse(`${dateTime.slice(0, 10)}T00:00:00Z`)).toISOString().slice(0, 10) === dateTime.slice(0, 10)
    ? dateTime
    : null;
}

/** Tags are the slugs of the revision's tags, separated by commas. */
export function readUpdateTag(attributes: TagAttributes): UpdateOptions | null {
  const date = dateTimeOf(attributes.get('date') ?? '');
  if (date === null) return null;
  const tags = (attributes.get('tags') ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  return { date, tags };
}

export function updatesBlock(
  format: UpdatesFormat,
  updates: Array<{ options: UpdateOptions; nodes: DocumentUpdateChild[] }>,
): DocumentBlockUpdates {
  return {
    object: 'block',
    type: 'updates',
    data: { format },
    nodes: updates.map(({ options, nodes }) => ({
      object: 'block',
      type: 'update',
      data: {
        date: options.date,
        ...(options.tags.length > 0 ? { tags: options.tags.map((tag): ContentRefTag => ({ kind: 'tag', tag })) } : {}),
      },
      nodes,
    })),
  };
}

export function updatesTag(data: Record<string, unknown>): string {
  return tagLine('updates', [['format', FORMATS.find((f) => f === data.format) ?? 'full']]);
}

/** An update's tag; null when its date is not one the tag can say. */
export function updateTag(data: Record<string, unknown>): string | null {
  const date = typeof data.date === 'string' ? dateTimeOf(data.date) : null;
  if (date === null) return null;
  const tags = Array.isArray(data.tags)
    ? data.tags.flatMap((ref: unknown) => {
        const tag = (ref as { tag?: unknown } | null)?.tag;
        // A comma would split it, a quote end the attribute.
        return typeof tag === 'string' && tag.trim() !== '' && !/[,"]/.test(tag) ? [tag.trim()] : [];
      })
    : [];
  return tagLine('update', [
    ['date', date.endsWith(MIDNIGHT) ? date.slice(0, 10) : date],
    ['tags', tags.length > 0 ? tags.join(',') : undefined],
  ]);
}
