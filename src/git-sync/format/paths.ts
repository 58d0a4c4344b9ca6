/** Paths of a repository as Git keeps them: relative, `/`-separated, no `.` or `..` segments. */

export { joinPath } from '../../core/relative-path.js';

/** The folder a path is in: '' at the top. */
export function folderOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at === -1 ? '' : path.slice(0, at);
}

/** The path of `path` inside `folder`, or undefined when it is not inside it. */
export function pathWithin(path: string, folder: string): string | undefined {
  if (folder === '') return path;
  return path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : undefined;
}

/** `path` (from the top) as a link from a file in `fromFolder` writes it: `setup.md`, `../README.md`. */
export function relativePath(fromFolder: string, path: string): string {
  const from = fromFolder ? fromFolder.split('/') : [];
  const to = path.split('/');
  let shared = 0;
  while (shared < from.length && shared < to.length - 1 && from[shared] === to[shared]) shared++;
  return [...Array<string>(from.length - shared).fill('..'), ...to.slice(shared)].join('/');
}

/** A path in a link, percent-encoding undone; as written where it is no valid encoding. */
export function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const README = /^README\.md$/i;

/** Whether a page file is a folder's README: the page of that folder, with its subpages beside it. */
export function isReadme(path: string): boolean {
  return README.test(path.slice(path.lastIndexOf('/') + 1));
}

/** The slug a page's file gives it: the file's name without `.md`, or its folder's for a README ('' for the top README). */
export function slugOfGitPath(gitPath: string): string {
  const parts = gitPath.split('/');
  const file = parts.at(-1)!;
  if (README.test(file)) return parts.at(-2) ?? '';
  return file.replace(/\.md$/i, '');
}

/** Whether a file is a page's markdown. */
export const isMarkdownFile = (path: string): boolean => /\.md$/i.test(path);

/** Code-unit order, as Git sorts a tree's names; the same on every machine, whatever its locale. */
export const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
