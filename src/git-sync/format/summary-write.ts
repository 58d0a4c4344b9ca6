import { groupNeedsAnchor } from './group-slug.js';
import type { NestedEntry, TopLevelEntry } from './model.js';
import { relativePath } from './paths.js';
import { escapeLinkText, formatLinkDestination } from './link-syntax.js';

/**
 * SUMMARY.md as GitBook writes it: `# Table of contents`, the ungrouped
 * entries, then each group under its `## Title` (with an anchor naming its
 * slug where the title does not give it), a blank line around each
 * heading, subpages indented two spaces a level; top-level entries after a
 * group come after a `***` line, which ends the group.
 */

/** A path as a SUMMARY.md destination holds it: `%` and `#` encoded, so that reading decodes it back whole. */
const encodePath = (path: string) => path.replace(/[%#]/g, (char) => encodeURIComponent(char));

function destinationOf(entry: NestedEntry, folder: string): string {
  if (entry.kind === 'page') return encodePath(relativePath(folder, entry.path));
  const { target } = entry;
  if ('url' in target) return target.url;
  const path = encodePath(relativePath(folder, target.path));
  return target.anchor ? `${path}#${target.anchor}` : path;
}

function writeItems(entries: readonly NestedEntry[], depth: number, folder: string, lines: string[]): void {
  for (const entry of entries) {
    const destination = formatLinkDestination(destinationOf(entry, folder));
    lines.push(`${'  '.repeat(depth)}* [${escapeLinkText(entry.title)}](${destination})`);
    if (entry.kind === 'page') writeItems(entry.children, depth + 1, folder, lines);
  }
}

/** The summary's text; `folder` is the summary's own folder from the root, which its destinations start from. */
export function writeSummary(entries: readonly TopLevelEntry[], folder: string): string {
  const lines = ['# Table of contents', ''];
  let inGroup = false;
  for (const entry of entries) {
    if (entry.kind !== 'group') {
      if (inGroup) {
        if (lines.at(-1) !== '') lines.push('');
        lines.push('***', '');
      }
      inGroup = false;
      writeItems([entry], 0, folder, lines);
      continue;
    }
    if (lines.at(-1) !== '') lines.push('');
    const anchor = groupNeedsAnchor(entry.title, entry.slug) ? ` <a href="#${entry.slug}" id="${entry.slug}"></a>` : '';
    lines.push(`## ${entry.title}${anchor}`, '');
    writeItems(entry.children, 0, folder, lines);
    inGroup = true;
  }
  while (lines.at(-1) === '') lines.pop();
  return `${lines.join('\n')}\n`;
}
