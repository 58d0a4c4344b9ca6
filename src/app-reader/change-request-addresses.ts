import type { Context } from '../context.js';

/** Which change request of which space: by its number (or id), as the app's addresses name it. */
export interface ChangeRequestPlace {
  organizationId: string;
  spaceId: string;
  changeRequest: string | number;
}

/** A change request's page in the app, or one of its tools (`~/<tool>`, for a page: `~/<tool>/<page id>`). */
export function changeRequestAddress(
  context: Context,
  place: ChangeRequestPlace,
  tool?: string,
  pageId?: string,
): string {
  const base = ['o', place.organizationId, 's', place.spaceId, 'change-requests', String(place.changeRequest)];
  if (tool === undefined) return context.urls.app(...base);
  return context.urls.app(...base, '~', tool, ...(pageId === undefined ? [] : [pageId]));
}
