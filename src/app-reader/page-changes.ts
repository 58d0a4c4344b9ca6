import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import {
  textOf,
  type BlockChange,
  type LineChange,
  type RowChange,
} from '../change-requests/semantic-changes/block-diff.js';
import type { PageDiff } from '../change-requests/semantic-changes/revision-diff.js';

/**
 * Inserted and deleted content is marked by its element (`ins`, `del`) and
 * by a word read before it, never by colour alone: screen readers and
 * printouts tell them apart too.
 */
const label = (text: string) => h('span.diff-label', `${text}: `);

const inserted = (content: string) => h('ins', [label('Added'), content]);
const deleted = (content: string) => h('del', [label('Removed'), content]);

const blockName = (change: BlockChange) =>
  (change.change === 'edited' ? change.after.type : change.block.type) ?? 'block';

function lineItem(line: LineChange): ElementContent {
  if (line.change === 'inserted') return h('li', [inserted(line.text)]);
  if (line.change === 'deleted') return h('li', [deleted(line.text)]);
  return h('li.diff-unchanged', line.text);
}

function rowItem(row: RowChange): ElementContent {
  const cells = (values: string[]) => values.join(' | ');
  if (row.change === 'edited') return h('li', [deleted(cells(row.before)), ' ', inserted(cells(row.after))]);
  if (row.change === 'inserted') return h('li', [inserted(cells(row.cells))]);
  if (row.change === 'deleted') return h('li', [deleted(cells(row.cells))]);
  return h('li.diff-unchanged', cells(row.cells));
}

function changeItem(change: BlockChange): ElementContent {
  const name = blockName(change);
  if (change.change !== 'edited') {
    const text = `${name}: ${textOf(change.block)}`;
    const marked = change.change === 'inserted' ? inserted(text) : change.change === 'deleted' ? deleted(text) : text;
    return h('li.diff-block', [h('p', [marked])]);
  }
  const inside = change.lines
    ? h('ol.diff-lines', { 'aria-label': `Lines of the ${name}` }, change.lines.map(lineItem))
    : change.rows
      ? h('ol.diff-lines', { 'aria-label': `Rows of the ${name}` }, change.rows.map(rowItem))
      : h('p', [deleted(textOf(change.before)), ' ', inserted(textOf(change.after))]);
  return h('li.diff-block', [h('p.diff-edited', `Edited ${name}`), inside]);
}

/** What a change request changes in one page's content: each block it adds, removes or edits, in the page's order. */
export function pageChangesSection(diff: PageDiff): ElementContent {
  const title = h('h2#page-changes-title', 'Changes on this page');
  if ('tooLarge' in diff) {
    return h('section.page-changes', { 'aria-labelledby': 'page-changes-title' }, [
      title,
      h('p', 'This page’s content changed, but it is too large to compare block by block.'),
    ]);
  }
  const changed = diff.blocks.filter((change) => change.change !== 'unchanged');
  return h('section.page-changes', { 'aria-labelledby': 'page-changes-title' }, [
    title,
    changed.length === 0
      ? h('p', 'The content of this page is unchanged.')
      : h('ol.diff-blocks', changed.map(changeItem)),
  ]);
}
