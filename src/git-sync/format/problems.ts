/** What a repository holds that the format cannot take as it is: each one named, none thrown. */
export type FormatProblemKind =
  /** Over one of REPOSITORY_LIMITS: nothing is read. */
  | 'over-limit'
  /** `.gitbook.yaml` that is not YAML, or a field of it that is not what GitBook takes: its default is used. */
  | 'bad-config'
  /** A file that is not UTF-8 text: read with replacement characters. */
  | 'not-utf8'
  /** A page file on disk SUMMARY.md does not list: left out, as GitBook leaves it out. */
  | 'unlisted-page'
  /** A file SUMMARY.md or a redirect names that is not there: left out. */
  | 'missing-page'
  /** A path that leads out of the content root: left out. */
  | 'outside-root'
  /** A page SUMMARY.md lists again without an anchor: read as a link to the page. */
  | 'listed-twice'
  /** A line of SUMMARY.md's list that is no `[Title](destination)` item, or a link GitBook does not take: left out. */
  | 'bad-entry'
  /** A file in a folder under `.gitbook/assets/`, where files are found by name alone: left out. */
  | 'asset-in-folder';

export interface FormatProblem {
  kind: FormatProblemKind;
  /** The repository path of the file it is about. */
  path: string;
  /** Where in that file, for a SUMMARY.md entry. */
  line?: number;
  message: string;
}
