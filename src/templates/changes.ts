import type { ContentChange } from '../change-requests/schemas.js';
import type { SpaceTemplate, TemplatePage } from './catalog.js';

/** A template's pages as one batch of insert_page changes, children into their parent by its ref. */
export function templateChanges(template: SpaceTemplate): ContentChange[] {
  const changes: ContentChange[] = [];
  const add = (page: TemplatePage, parent: string | undefined) => {
    changes.push({
      operation: 'insert_page',
      ref: page.ref,
      title: page.title,
      ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
      ...(page.description !== undefined ? { description: page.description } : {}),
      ...(parent !== undefined ? { into: parent } : {}),
      document: { markdown: page.markdown },
    });
    for (const child of page.children ?? []) add(child, page.ref);
  };
  for (const page of template.pages) add(page, undefined);
  return changes;
}
