import { ApiError } from '../core/errors.js';
import type { Context } from '../context.js';
import { MERGE_MARKS, type TextMerge } from '../document/text-merge.js';
import type { EditAddress, PageDraft, PageEdit } from './page-editing.js';

/**
 * The writer's markdown merged with the page as another writer saved it
 * since, from the version the writer started from (the change request's
 * revision the form names), on the conversion threads within a deadline.
 * Undefined where there is nothing to merge from (a form without it, a page
 * the revision does not have) or the merge did not finish in time: the
 * writer then merges by hand, from both versions shown.
 */
export async function mergeWithSaved(
  context: Context,
  address: EditAddress,
  edit: PageEdit,
  theirs: PageDraft,
): Promise<TextMerge | undefined> {
  if (!edit.from) return undefined;
  // The space of the page as saved since, which the save just read as this writer's to edit.
  const { id: spaceId, organizationId } = theirs.space;
  const point = await context.content.revision(spaceId, organizationId, edit.from);
  const page = point && (await context.content.tree(point)).pages.get(address.pageId);
  if (!page || page.type !== 'document') return undefined;
  const original = (await context.content.markdownOf(organizationId, [page]))(page);
  try {
    return await context.conversions.mergeTexts(
      { original, theirs: theirs.markdown, mine: edit.markdown },
      'The merge of your version with the one saved since',
    );
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) return undefined;
    throw error;
  }
}

/** Whether the markdown still holds a merge's marks around both versions of some lines, left to choose from. */
export function holdsMergeMarks(markdown: string): boolean {
  const lines = (mark: string) => markdown.startsWith(`${mark}\n`) || markdown.includes(`\n${mark}\n`);
  return lines(MERGE_MARKS.start) && (lines(MERGE_MARKS.end) || markdown.endsWith(`\n${MERGE_MARKS.end}`));
}
