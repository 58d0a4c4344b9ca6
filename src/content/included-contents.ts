import type { Context } from '../context.js';
import type { JSONDocument } from '../document/index.js';
import { includedInDocument, includedInMarkdown, loadIncluded } from './dereference.js';
import type { ReusableContentState } from './reusable-contents.js';
import type { RevisionPoint } from './state.js';

async function reusableContentsNamed(context: Context, point: RevisionPoint, ids: readonly string[]) {
  const contents = await context.content.reusableContents(point);
  return ids
    .map((id) => contents.get(id))
    .filter((state): state is ReusableContentState => state !== undefined && state.documentId !== null);
}

/** The documents of the revision's reusable contents that `roots` include, directly or not, by reusable content id. */
export function includedDocuments(context: Context, point: RevisionPoint, roots: Iterable<JSONDocument>) {
  return loadIncluded(roots, includedInDocument, async (ids) => {
    const states = await reusableContentsNamed(context, point, ids);
    const documentOf = await context.content.documentsOf(point.organizationId, states);
    return new Map(states.map((state) => [state.reusableContentId, documentOf(state)]));
  });
}

/** The markdown of the revision's reusable contents that `roots` include, directly or not, by reusable content id. */
export function includedMarkdown(context: Context, point: RevisionPoint, roots: Iterable<string>) {
  return loadIncluded(roots, includedInMarkdown, async (ids) => {
    const states = await reusableContentsNamed(context, point, ids);
    const markdownOf = await context.content.markdownOf(point.organizationId, states);
    return new Map(states.map((state) => [state.reusableContentId, markdownOf(state)]));
  });
}
