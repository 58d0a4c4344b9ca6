import type { Urls } from '../core/urls.js';
import type { SpaceWithAccess } from '../access/space-queries.js';
import type { ChangeRequest } from './change-request-schemas.js';
import type { JSONDocument } from '../document/index.js';
import { pagesArrayOf, type PageTreeBody } from './page-tree-body.js';
import type { ContentPlace, RevisionFile } from './page-present.js';
import type { RevisionReusableContent } from './reusable-contents.js';
import type { RevisionPoint } from './state.js';

export interface RevisionParts {
  point: RevisionPoint;
  space: SpaceWithAccess;
  place: ContentPlace;
  /** The revision's files, presented. */
  files: RevisionFile[];
  reusableContents: RevisionReusableContent[];
  pageTree: PageTreeBody;
  /** The change request a merge revision came from, presented, where it is still there. */
  mergedFrom: ChangeRequest | undefined;
}

/** A revision as the spec's Revision, as the JSON bytes sent. */
export function presentRevision(parts: RevisionParts, urls: Urls): Buffer {
  const { point, space, place } = parts;
  const spaceAppUrl = urls.app('o', space.organization_id, 's', space.id);
  const revisionUrls: Record<string, string> = {
    app: place.changeRequestId ? `${spaceAppUrl}/revisions/${point.id}` : spaceAppUrl,
  };
  if (space.visibility !== 'private') revisionUrls.published = urls.published(space.id);
  if (space.visibility === 'public') revisionUrls.public = urls.published(space.id);
  const revision: Record<string, unknown> = {
    object: 'revision',
    id: point.id,
    type: point.type,
    parents: point.parents,
    files: parts.files,
    reusableContents: parts.reusableContents,
    variables: point.variables,
    createdAt: point.createdAt.toISOString(),
    urls: revisionUrls,
  };
  if (parts.mergedFrom) revision.mergedFrom = parts.mergedFrom;
  // The page tree is spliced in as bytes: it is serialised once per revision and cached.
  return Buffer.concat([
    Buffer.from(`${JSON.stringify(revision).slice(0, -1)},"pages":`),
    pagesArrayOf(parts.pageTree),
    Buffer.from('}'),
  ]);
}

/** The `document` form of a presented page and its subpages: the JSON document in place of the markdown. */
export function swapMarkdownForDocument(
  page: Record<string, unknown>,
  documentOf: (page: Record<string, unknown>) => JSONDocument,
): void {
  // A computed page shown as written has no content of its own.
  if ('markdown' in page) {
    page.document = documentOf(page);
    delete page.markdown;
  }
  // A link page has no subpages.
  for (const child of (page.pages ?? []) as Record<string, unknown>[]) swapMarkdownForDocument(child, documentOf);
}
