import type { Cursors, Page } from '../../core/pagination.js';

/**
 * A page of a structure list (sections, groups, site spaces). Such a list is
 * small (see limits.ts) and read whole in structure order, so the keyset is
 * the last item's id and its place in that order: the next page starts after
 * that item, or after its place when it was removed meanwhile.
 */
export function pageOfOrdered<T>(
  cursors: Cursors,
  list: string,
  query: { page?: string | undefined; limit?: number | undefined },
  items: readonly T[],
  idOf: (item: T) => string,
): Page<T> {
  const request = cursors.request(list, {
    ...(query.page ? { page: query.page } : {}),
    limit: query.limit ?? 50,
    order: 'asc',
  });
  let start = 0;
  if (request.after) {
    const found = items.findIndex((item) => idOf(item) === request.after!.id);
    start = found >= 0 ? found + 1 : request.after.createdAt.getTime() + 1;
  }
  const pageItems = items.slice(start, start + request.limit);
  const page: Page<T> = { count: items.length, items: pageItems };
  const last = start + pageItems.length - 1;
  if (request.limit > 0 && start + request.limit < items.length) {
    page.next = { page: cursors.encode(list, 'asc', { createdAt: new Date(last), id: idOf(items[last]!) }) };
  }
  return page;
}
