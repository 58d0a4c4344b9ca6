import { contentTypeOf } from './content-types.js';
import { fingerprintOf, type RepositoryFingerprints } from './fingerprints.js';
import { CONFIG_FILE, readConfig } from './config.js';
import { inferredEntries } from './infer-tree.js';
import { REPOSITORY_LIMITS } from './limits.js';
import {
  ASSETS_FOLDER,
  emptyContent,
  type RepositoryConfig,
  type RepositoryContent,
  type RepositoryFile,
  type TopLevelEntry,
} from './model.js';
import { byPath, isMarkdownFile, joinPath, pathWithin } from './paths.js';
import type { FormatProblem } from './problems.js';
import { summaryEntries } from './summary-entries.js';
import { readSummary } from './summary-read.js';

export interface ReadOptions {
  /** The folder of `.gitbook.yaml` in the repository; its top by default. */
  projectDirectory?: string;
}

export interface ReadRepository {
  content: RepositoryContent;
  /** The files the content was read from, by hash. */
  fingerprints: RepositoryFingerprints;
  problems: FormatProblem[];
}

/** What lies under the content root, sorted out: page files, assets, and the summary. */
interface RootFiles {
  pages: Map<string, Uint8Array>;
  assets: Map<string, Uint8Array>;
  summary: Uint8Array | undefined;
  /** Files in folders of the assets folder, by repository path. */
  nestedAssets: string[];
  count: number;
  bytes: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The text of a file; a file that is not UTF-8 is read with replacement characters, with a problem. */
function textOf(bytes: Uint8Array, file: string, problems: FormatProblem[]): string {
  try {
    return decoder.decode(bytes);
  } catch {
    problems.push({
      kind: 'not-utf8',
      path: file,
      message: `${file} is not UTF-8 text; read with replacement characters`,
    });
    return lenientDecoder.decode(bytes);
  }
}

/** A folder or file whose name starts with a dot (`.gitbook/`, `.github/`) holds no pages. */
const inDotFolder = (path: string) => path.split('/').some((part) => part.startsWith('.'));

function sortRootFiles(files: ReadonlyMap<string, Uint8Array>, root: string, config: RepositoryConfig): RootFiles {
  const found: RootFiles = {
    pages: new Map(),
    assets: new Map(),
    summary: undefined,
    nestedAssets: [],
    count: 0,
    bytes: 0,
  };
  for (const [written, bytes] of files) {
    const repositoryPath = joinPath('', written);
    const path = repositoryPath === undefined ? undefined : pathWithin(repositoryPath, root);
    if (path === undefined) continue;
    found.count++;
    found.bytes += bytes.byteLength;
    const asset = pathWithin(path, ASSETS_FOLDER.slice(0, -1));
    if (asset !== undefined) {
      if (asset.includes('/')) found.nestedAssets.push(repositoryPath!);
      else found.assets.set(asset, bytes);
    } else if (path === config.summary) {
      found.summary = bytes;
    } else if (isMarkdownFile(path) && !inDotFolder(path)) {
      found.pages.set(path, bytes);
    }
  }
  return found;
}

function overLimit(found: RootFiles, at: string): FormatProblem | undefined {
  if (found.count > REPOSITORY_LIMITS.files)
    return {
      kind: 'over-limit',
      path: at,
      message: `${at || 'The repository'} has over ${REPOSITORY_LIMITS.files} files (REPOSITORY_LIMITS.files); nothing is read`,
    };
  if (found.bytes > REPOSITORY_LIMITS.bytes)
    return {
      kind: 'over-limit',
      path: at,
      message: `${at || 'The repository'} holds over ${REPOSITORY_LIMITS.bytes} bytes (REPOSITORY_LIMITS.bytes); nothing is read`,
    };
  return undefined;
}

/**
 * A repository's content in GitBook's Git Sync format, from its files by
 * path: `.gitbook.yaml` (or its defaults), SUMMARY.md (or, without one, the
 * page files' own tree), the pages' markdown as written, the assets, the
 * redirects. What does not fit the format is a problem, never an exception.
 */
export function readRepository(files: ReadonlyMap<string, Uint8Array>, options: ReadOptions = {}): ReadRepository {
  const problems: FormatProblem[] = [];
  const project = joinPath('', options.projectDirectory ?? '') ?? '';
  const configFile = project ? `${project}/${CONFIG_FILE}` : CONFIG_FILE;
  const configBytes = files.get(configFile);
  const {
    config,
    redirects,
    problems: configProblems,
  } = readConfig(configBytes === undefined ? undefined : textOf(configBytes, configFile, problems), configFile);
  problems.push(...configProblems);
  const root = joinPath(project, config.root)!;
  const inRepository = (path: string) => (root ? `${root}/${path}` : path);

  const found = sortRootFiles(files, root, config);
  const limit = overLimit(found, root);
  const fingerprints = limit ? emptyFingerprints(configBytes) : fingerprintsOf(found, configBytes);
  if (limit) return { content: emptyContent(config), fingerprints, problems: [limit] };
  for (const path of found.nestedAssets)
    problems.push({
      kind: 'asset-in-folder',
      path,
      message: `${path} is in a folder of ${ASSETS_FOLDER}, where files are found by name alone; left out`,
    });

  const pages = new Map(
    [...found.pages]
      .sort(([a], [b]) => byPath(a, b))
      .map(([path, bytes]) => [path, textOf(bytes, inRepository(path), problems)]),
  );
  let entries: TopLevelEntry[];
  if (found.summary === undefined) {
    entries = inferredEntries(pages, config.readme);
  } else {
    const summaryFile = inRepository(config.summary);
    const summary = readSummary(textOf(found.summary, summaryFile, problems), summaryFile);
    if ('overLimit' in summary) return { content: emptyContent(config), fingerprints, problems: [summary.overLimit] };
    problems.push(...summary.problems);
    const read = summaryEntries(summary.outline, pages, { path: config.summary, file: summaryFile }, problems);
    // GitBook syncs only the pages its table of contents lists: a README.md of the code, a CONTRIBUTING.md stay files.
    for (const path of pages.keys())
      if (!read.listed.has(path))
        problems.push({
          kind: 'unlisted-page',
          path: inRepository(path),
          message: `${inRepository(path)} is not in ${summaryFile}; left out, as GitBook leaves it out`,
        });
    entries = read.entries;
  }

  const kept = redirects.filter(({ from, to }) => {
    if (pages.has(to)) return true;
    problems.push({
      kind: 'missing-page',
      path: configFile,
      message: `${configFile}: the redirect of ${from} names no page file (${to}); left out`,
    });
    return false;
  });
  const assets: RepositoryFile[] = [...found.assets]
    .sort(([a], [b]) => byPath(a, b))
    .map(([name, bytes]) => ({ name, contentType: contentTypeOf(name), bytes }));
  return { content: { config, entries, files: assets, redirects: kept }, fingerprints, problems };
}

const emptyFingerprints = (configBytes: Uint8Array | undefined): RepositoryFingerprints => ({
  structure: fingerprintOf(configBytes, undefined),
  pages: {},
  assets: {},
});

function fingerprintsOf(found: RootFiles, configBytes: Uint8Array | undefined): RepositoryFingerprints {
  const each = (files: ReadonlyMap<string, Uint8Array>) =>
    Object.fromEntries([...files].map(([path, bytes]) => [path, fingerprintOf(bytes)]));
  return {
    structure: fingerprintOf(configBytes, found.summary),
    pages: each(found.pages),
    assets: each(found.assets),
  };
}
