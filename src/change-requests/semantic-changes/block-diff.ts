import { diffArrays } from 'diff';

/** A block of GitBook's JSON document, seen only for what a diff reads of it. */
export interface DiffBlock {
  object: string;
  type?: string;
  key?: string;
  data?: Record<string, unknown>;
  nodes?: DiffBlock[];
  fragments?: DiffBlock[];
  leaves?: Array<{ text: string }>;
  fragment?: string;
  [field: string]: unknown;
}

export type LineChange = { change: 'unchanged' | 'inserted' | 'deleted'; text: string };

export type RowChange =
  | { change: 'unchanged' | 'inserted' | 'deleted'; cells: string[] }
  | { change: 'edited'; before: string[]; after: string[] };

export type BlockChange =
  | { change: 'unchanged' | 'inserted' | 'deleted'; block: DiffBlock }
  | { change: 'edited'; before: DiffBlock; after: DiffBlock; lines?: LineChange[]; rows?: RowChange[] };

/**
 * Edits past which Myers' search stops (it costs about items × edits): a
 * sequence that far apart is shown as replaced whole, which is what it is.
 */
const MAX_EDITS = 2_000;

/**
 * A run of a sequence diff: the items in common, or the removed and added
 * items of one place (a hunk), by index into the old and new sequences.
 */
type Run = { common: Array<[number, number]> } | { removed: number[]; added: number[] };

/** The runs between two sequences compared by their canonical strings. */
function runsOf(before: readonly string[], after: readonly string[]): Run[] {
  const changes = diffArrays([...before], [...after], { maxEditLength: MAX_EDITS });
  // Too far apart to search: everything removed, then everything added.
  if (!changes) return [{ removed: before.map((_, i) => i), added: after.map((_, i) => i) }];
  const runs: Run[] = [];
  let oldAt = 0;
  let newAt = 0;
  for (const change of changes) {
    if (!change.added && !change.removed) {
      const common: Array<[number, number]> = [];
      for (let i = 0; i < change.count; i++) common.push([oldAt++, newAt++]);
      runs.push({ common });
      continue;
    }
    let hunk = runs.at(-1);
    if (!hunk || 'common' in hunk) {
      hunk = { removed: [], added: [] };
      runs.push(hunk);
    }
    for (let i = 0; i < change.count; i++) {
      if (change.removed) hunk.removed.push(oldAt++);
      else hunk.added.push(newAt++);
    }
  }
  return runs;
}

/**
 * A block's content as a string to compare: its JSON without the keys. The
 * keys this service gives count the document's nodes in order, so they are
 * not stable (a block inserted renumbers every block after it) and say
 * nothing of whether two blocks are the same.
 */
export function canonical(block: unknown): string {
  return JSON.stringify(block, (name, value: unknown) => (name === 'key' ? undefined : value));
}

/** The text of a node and everything in it, leaves joined, blocks on lines of their own. */
export function textOf(node: DiffBlock): string {
  if (node.leaves) return node.leaves.map((leaf) => leaf.text).join('');
  const children = [...(node.nodes ?? []), ...(node.fragments ?? [])];
  const parts = children.map(textOf);
  return parts.join(node.object === 'block' && children.some((child) => child.object === 'block') ? '\n' : '');
}

/** A code block's lines, as text. */
function codeLines(block: DiffBlock): string[] {
  return (block.nodes ?? []).map(textOf);
}

interface TableData {
  view?: { columns?: string[] };
  records?: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
}

/** A table's rows in their order, each its cells' text in the order of the view's columns. */
function tableRows(block: DiffBlock): string[][] {
  const data = (block.data ?? {}) as TableData;
  const fragments = new Map((block.fragments ?? []).map((fragment) => [fragment.fragment, fragment]));
  const columns = data.view?.columns ?? [];
  const records = Object.values(data.records ?? {}).sort((a, b) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
  );
  return records.map((record) =>
    columns.map((column) => {
      const value = record.values[column];
      if (typeof value === 'string') {
        const fragment = fragments.get(value);
        return fragment ? textOf(fragment) : value;
      }
      return value === undefined ? '' : JSON.stringify(value);
    }),
  );
}

function lineChanges(before: string[], after: string[]): LineChange[] {
  const changes: LineChange[] = [];
  for (const run of runsOf(before, after)) {
    if ('common' in run) for (const [i] of run.common) changes.push({ change: 'unchanged', text: before[i]! });
    else {
      for (const i of run.removed) changes.push({ change: 'deleted', text: before[i]! });
      for (const i of run.added) changes.push({ change: 'inserted', text: after[i]! });
    }
  }
  return changes;
}

function rowChanges(before: string[][], after: string[][]): RowChange[] {
  const key = (cells: string[]) => JSON.stringify(cells);
  const changes: RowChange[] = [];
  for (const run of runsOf(before.map(key), after.map(key))) {
    if ('common' in run) {
      for (const [i] of run.common) changes.push({ change: 'unchanged', cells: before[i]! });
      continue;
    }
    // Rows removed and added at one place, one for one, are rows edited: their cells changed.
    const paired = Math.min(run.removed.length, run.added.length);
    for (let i = 0; i < paired; i++)
      changes.push({ change: 'edited', before: before[run.removed[i]!]!, after: after[run.added[i]!]! });
    for (const i of run.removed.slice(paired)) changes.push({ change: 'deleted', cells: before[i]! });
    for (const i of run.added.slice(paired)) changes.push({ change: 'inserted', cells: after[i]! });
  }
  return changes;
}

/** One block edited into another of its type: with the lines or rows that changed inside a code block or a table. */
function edited(before: DiffBlock, after: DiffBlock): BlockChange {
  if (before.type === 'code')
    return { change: 'edited', before, after, lines: lineChanges(codeLines(before), codeLines(after)) };
  if (before.type === 'table')
    return { change: 'edited', before, after, rows: rowChanges(tableRows(before), tableRows(after)) };
  return { change: 'edited', before, after };
}

/**
 * The top-level blocks of two documents compared in order (Myers' diff, by
 * content): blocks kept, inserted and deleted; where blocks were removed and
 * added at one place, each removed block is paired with the next added one of
 * its type as an edit of it, so that a changed paragraph, table or code block
 * reads as that block edited, with the lines or rows changed inside it.
 */
export function diffBlocks(before: readonly DiffBlock[], after: readonly DiffBlock[]): BlockChange[] {
  const changes: BlockChange[] = [];
  for (const run of runsOf(before.map(canonical), after.map(canonical))) {
    if ('common' in run) {
      for (const [, j] of run.common) changes.push({ change: 'unchanged', block: after[j]! });
      continue;
    }
    const added = [...run.added];
    const pairs = new Map<number, number>();
    for (const i of run.removed) {
      const at = added.findIndex((j) => after[j]!.type === before[i]!.type);
      if (at >= 0) pairs.set(i, added.splice(at, 1)[0]!);
    }
    // Deleted blocks first, then the edits and insertions in the new document's order.
    for (const i of run.removed) if (!pairs.has(i)) changes.push({ change: 'deleted', block: before[i]! });
    const editOf = new Map([...pairs].map(([i, j]) => [j, i]));
    for (const j of run.added) {
      const i = editOf.get(j);
      changes.push(i === undefined ? { change: 'inserted', block: after[j]! } : edited(before[i]!, after[j]!));
    }
  }
  return changes;
}
