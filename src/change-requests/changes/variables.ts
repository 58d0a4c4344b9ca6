import { BadRequestError } from '../../core/errors.js';
import type { VariableValues } from '../../db/types.js';
import type { ContentTree } from '../../content/tree.js';
import { patchVariables } from '../../content/variables.js';
import type { ContentChange, UpdateVariables } from '../schemas.js';

/**
 * The space's variables after a batch: those of the revision it applies to,
 * with each `update_variables` change that names no page applied in order.
 * Every problem throws before anything is written.
 */
export function spaceVariablesAfter(start: VariableValues, changes: readonly ContentChange[]): VariableValues {
  let variables = start;
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'update_variables' || change.page !== undefined) continue;
    variables = patchVariables(variables, change.variables, `body/changes/${index}/variables`);
  }
  return variables;
}

/** Applies an `update_variables` change that names a page to that page of the batch's tree. */
export function setPageVariables(
  tree: ContentTree,
  pageId: string,
  change: UpdateVariables & { page: string },
  field: string,
): void {
  const page = tree.pages.get(pageId);
  if (!page) throw new BadRequestError(`${field}/page: no page ${change.page} in this change request`);
  tree.setPage({ ...page, variables: patchVariables(page.variables, change.variables, `${field}/variables`) });
}
