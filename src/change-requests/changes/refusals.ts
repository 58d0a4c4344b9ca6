import { ApiError } from '../../core/errors.js';
import type { ContentTree } from '../../content/tree.js';
import type { ContentChange } from '../schemas.js';
import type { PageContent } from './page-input.js';

/** A refusal's field names the change: `body/changes/<index>…`. */
const CHANGE_FIELD = /^body\/changes\/(\d+)/;

const quoted = (text: string) => JSON.stringify(text.length > 120 ? `${text.slice(0, 119)}…` : text);

/** The page a change is about, as its writer knows it: a new page's title and ref, an existing page's title and path. */
function pageOfChange(
  change: ContentChange,
  content: PageContent | undefined,
  tree: ContentTree | undefined,
): string | undefined {
  switch (change.operation) {
    case 'insert_page': {
      const matterTitle = typeof content?.frontmatter.title === 'string' ? content.frontmatter.title : undefined;
      const title = change.title ?? matterTitle ?? content?.title;
      const named = [title !== undefined ? `page ${quoted(title)}` : 'a new page'];
      if (change.ref) named.push(`ref ${quoted(change.ref)}`);
      return named.join(', ');
    }
    case 'update_page':
    case 'delete_page':
    case 'revert_page':
    case 'update_variables': {
      if (change.page === undefined) return undefined;
      const page = tree?.pages.get(change.page);
      if (!page) return `page ${quoted(change.page)}`;
      return `page ${quoted(page.title)} at ${quoted(tree!.pathOf(page.pageId))}`;
    }
    case 'insert_files':
      return `files ${change.files.map((file) => quoted(file.name)).join(', ')}`;
    default:
      return undefined;
  }
}

/**
 * A refusal of one change of a batch, its message naming what was refused:
 * the change's index and the page it is about. The batch is all or nothing,
 * so the caller learns which of fifty pages to fix without bisecting. Other
 * errors pass unchanged.
 */
export function namingRefusedChange(
  error: unknown,
  changes: readonly ContentChange[],
  contents: ReadonlyMap<number, PageContent> | undefined,
  tree: ContentTree | undefined,
): unknown {
  if (!(error instanceof ApiError) || error.statusCode >= 500) return error;
  const index = Number(CHANGE_FIELD.exec(error.message)?.[1]);
  const change = changes[index];
  if (change === undefined) return error;
  const what = pageOfChange(change, contents?.get(index), tree);
  const refused = `change ${index} of ${changes.length}${what ? `, ${what}` : ''}`;
  // The same error, its class and headers kept: only what it says grows.
  error.message = `${error.message} (refused: ${refused}; nothing of the batch was written)`;
  return error;
}
