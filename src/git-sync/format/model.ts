/**
 * A space as GitBook's Git Sync keeps it in a repository: the table of
 * contents SUMMARY.md gives (groups, pages and their subpages, link entries),
 * each page's markdown file as written, the files under `.gitbook/assets/`,
 * and what `.gitbook.yaml` says. Paths are relative to the content root and
 * use `/`.
 *
 * What follows a `## Group` heading in SUMMARY.md belongs to it, up to the
 * next heading or a `***` line: top-level entries after a group come after
 * one. A link entry to a page without an anchor comes after the page (the
 * first listing of a file is the page, the next ones links).
 */

/** `.gitbook.yaml`: where the content lives, and the names of its two special files. */
export interface RepositoryConfig {
  /** The content's folder from the project directory, without `./` or a trailing `/`; '' for the project directory itself. */
  root: string;
  /** The first page's file, from the root. */
  readme: string;
  /** The table of contents' file, from the root. */
  summary: string;
}

export interface RepositoryPage {
  kind: 'page';
  /** The title SUMMARY.md gives it. */
  title: string;
  /** `a/b.md`, or `a/b/README.md` for a page with subpages; `README.md` for the first page. */
  path: string;
  /** The file as written: frontmatter, `# Title`, content. */
  markdown: string;
  children: NestedEntry[];
}

/** Where a link entry leads: an absolute URL, or a page of the repository, at an anchor or not. */
export type LinkEntryTarget = { url: string } | { path: string; anchor: string };

export interface RepositoryLink {
  kind: 'link';
  title: string;
  target: LinkEntryTarget;
}

/** A `## Group` of SUMMARY.md: top level only, its pages under it. */
export interface RepositoryGroup {
  kind: 'group';
  title: string;
  /**
   * Its slug in the space: the id of its heading's anchor where SUMMARY.md
   * gives one, else the folder its pages share, else its title's.
   */
  slug: string;
  children: NestedEntry[];
}

export type NestedEntry = RepositoryPage | RepositoryLink;
export type TopLevelEntry = RepositoryGroup | NestedEntry;

/** A file of `.gitbook/assets/`, by its name there. */
export interface RepositoryFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/** `.gitbook.yaml`'s `redirects`: an old path of the site, and the page file it now leads to. */
export interface Redirect {
  from: string;
  to: string;
}

export interface RepositoryContent {
  config: RepositoryConfig;
  entries: TopLevelEntry[];
  files: RepositoryFile[];
  redirects: Redirect[];
}

export const DEFAULT_CONFIG: RepositoryConfig = Object.freeze({ root: '', readme: 'README.md', summary: 'SUMMARY.md' });

/** Where Git Sync keeps a space's files, from the root. */
export const ASSETS_FOLDER = '.gitbook/assets/';

/** Content with nothing in it, as a repository refused whole reads. */
export const emptyContent = (config: RepositoryConfig = DEFAULT_CONFIG): RepositoryContent => ({
  config: { ...config },
  entries: [],
  files: [],
  redirects: [],
});
