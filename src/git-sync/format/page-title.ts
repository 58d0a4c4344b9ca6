import { slugOfGitPath } from './paths.js';

/**
 * The title of a page SUMMARY.md does not name: its leading `# Title` line,
 * as Git Sync writes it after the frontmatter, else its file's slug. Read
 * line by line, without a markdown parse: the service reads the title again
 * from the markdown when the page is written.
 */
export function titleOfPage(path: string, markdown: string): string {
  const lines = markdown.split(/\r?\n/, 1000);
  let at = 0;
  if (lines[0] === '---') {
    const close = lines.indexOf('---', 1);
    if (close !== -1) at = close + 1;
  }
  while (at < lines.length && lines[at]!.trim() === '') at++;
  const line = lines[at] ?? '';
  if (line.startsWith('# ')) {
    let end = line.length;
    while (end > 2 && line[end - 1] === '#') end--;
    const title = (end < line.length && line[end - 1] === ' ' ? line.slice(2, end) : line.slice(2)).trim();
    if (title !== '') return title;
  }
  return slugOfGitPath(path) || path;
}
