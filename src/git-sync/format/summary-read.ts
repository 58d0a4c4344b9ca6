import { REPOSITORY_LIMITS } from './limits.js';
import type { FormatProblem } from './problems.js';
import { readItemLink } from './link-syntax.js';

/**
 * SUMMARY.md as written, before its destinations are looked up: a `#`
 * heading first (the table's own title), `## Group` headings, and list items
 * `* [Title](destination)` nested by indentation, with `*`, `-` or `+`. A
 * group holds the items under its heading up to the next heading or a
 * thematic break (`***`), which GitBook writes before top-level pages that
 * come after a group.
 */

export interface SummaryItem {
  /** 1-based, for problems. */
  line: number;
  title: string;
  destination: string;
  children: SummaryItem[];
}

export interface SummaryGroup {
  line: number;
  title: string;
  /** The id of the heading's `<a>` anchor, which GitBook writes where the group's slug is not its title's. */
  id: string | undefined;
  items: SummaryItem[];
}

/** Top-level items outside any group: before the first group, or after a `***`. */
export interface SummaryItems {
  items: SummaryItem[];
}

export interface SummaryOutline {
  /** In the summary's order. */
  sections: Array<SummaryGroup | SummaryItems>;
}

export type ReadSummary = { outline: SummaryOutline; problems: FormatProblem[] } | { overLimit: FormatProblem };

/** The column a line's text starts at, a tab moving to the next multiple of four. */
function indentationOf(line: string): { columns: number; length: number } {
  let columns = 0;
  let length = 0;
  for (; length < line.length; length++) {
    if (line[length] === ' ') columns++;
    else if (line[length] === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return { columns, length };
}

/** The id of the first `<a … id="…">` tag of a text, as GitBook gives a heading its own. */
function anchorIdOf(text: string): string | undefined {
  const tag = /<a\s[^<>]*>/.exec(text);
  return tag ? /\sid="([^"]*)"/.exec(tag[0])?.[1] : undefined;
}

/**
 * A heading line's level, its text (closing `#`s and GitBook's `<a id>`
 * anchors taken out) and its anchor's id, or undefined.
 */
function headingOf(line: string): { level: number; title: string; id: string | undefined } | undefined {
  let level = 0;
  while (line[level] === '#') level++;
  if (level === 0 || level > 6 || (line.length > level && line[level] !== ' ' && line[level] !== '\t'))
    return undefined;
  let text = line.slice(level).trim();
  // A closing sequence of `#`s is no part of the title when a space comes before it.
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end < text.length && (end === 0 || text[end - 1] === ' ' || text[end - 1] === '\t')) text = text.slice(0, end);
  return { level, title: text.replace(/<[^<>]*>/g, '').trim(), id: anchorIdOf(text) };
}

const MARKERS = new Set(['*', '-', '+']);

/** A thematic break: three or more of one of `*`, `-`, `_`, spaces between them allowed. */
const THEMATIC_BREAK = /^ {0,3}([*_-])(?:[ \t]*\1){2,}[ \t]*$/;

/** A line as a problem quotes it: trimmed, and cut short past a sentence's length. */
function excerpt(line: string): string {
  const text = line.trim();
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

export function readSummary(text: string, file: string): ReadSummary {
  const problems: FormatProblem[] = [];
  const leftOut = (line: number, message: string) =>
    problems.push({ kind: 'bad-entry', path: file, line, message: `${file}:${line}: ${message}` });
  const overLimit = (message: string): ReadSummary => ({
    overLimit: { kind: 'over-limit', path: file, message: `${file} ${message}; nothing is read` },
  });
  const ungrouped = (): SummaryItems => ({ items: [] });
  const outline: SummaryOutline = { sections: [ungrouped()] };
  let current = outline.sections[0]!.items;
  // The open items, outermost first, with the column each one's marker is at.
  const open: Array<{ column: number; item: SummaryItem }> = [];
  let count = 0;
  let titleSeen = false;
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const number = index + 1;
    if (line.trim() === '') continue;
    const heading = headingOf(line);
    if (heading) {
      open.length = 0;
      if (heading.level === 2) {
        const group: SummaryGroup = { line: number, title: heading.title, id: heading.id, items: [] };
        outline.sections.push(group);
        current = group.items;
      } else if (heading.level !== 1 || titleSeen) {
        leftOut(number, `only one # title and ## groups are read; "${excerpt(line)}" is left out`);
      }
      titleSeen = true;
      continue;
    }
    if (THEMATIC_BREAK.test(line)) {
      open.length = 0;
      if ('title' in outline.sections.at(-1)!) {
        const after = ungrouped();
        outline.sections.push(after);
        current = after.items;
      }
      continue;
    }
    const { columns, length } = indentationOf(line);
    const marker = line[length];
    const afterMarker = line[length + 1];
    if (!marker || !MARKERS.has(marker) || (afterMarker !== ' ' && afterMarker !== '\t')) {
      leftOut(number, `"${excerpt(line)}" is no list item; left out`);
      continue;
    }
    const link = readItemLink(line.slice(length + 2).trim());
    if (!link) {
      leftOut(number, `"${excerpt(line)}" is no [Title](link) item; left out`);
      continue;
    }
    if (++count > REPOSITORY_LIMITS.summaryEntries)
      return overLimit(`has over ${REPOSITORY_LIMITS.summaryEntries} entries (REPOSITORY_LIMITS.summaryEntries)`);
    // A child's marker is at least two columns in from its parent's, as markdown nests list items.
    while (open.length > 0 && columns < open.at(-1)!.column + 2) open.pop();
    if (open.length >= REPOSITORY_LIMITS.summaryDepth)
      return overLimit(
        `nests entries over ${REPOSITORY_LIMITS.summaryDepth} levels deep (REPOSITORY_LIMITS.summaryDepth)`,
      );
    const item: SummaryItem = { line: number, title: link.title, destination: link.destination, children: [] };
    (open.at(-1)?.item.children ?? current).push(item);
    open.push({ column: columns, item });
  }
  return { outline, problems };
}
