import { unzipSync } from 'fflate';
import { BadRequestError } from '../core/errors.js';
import { joinPath } from '../core/relative-path.js';
import { readRepository, type FormatProblem, type RepositoryContent } from '../git-sync/format/index.js';
import { readMarkdownFolders } from './markdown-folders.js';

/**
 * A zip's files, bounded before anything is inflated: the central
 * directory's count of entries and the sizes it declares are checked first,
 * and an entry is inflated into a buffer of its declared size, never more (a
 * zip that understates a size gets its entry cut, not a larger buffer).
 */
export const ZIP_LIMITS = Object.freeze({
  /** Entries of the central directory, folders included. */
  entries: 20_000,
  /** Declared bytes of all entries together, inflated. */
  bytes: 256 * 1024 * 1024,
  /** How many times its compressed size an entry of over 1 MiB may inflate to. */
  ratio: 200,
});

const MIB = 1024 * 1024;

/** Names left out: folders, macOS's resource forks and Finder files. */
const ignored = (name: string) =>
  name.endsWith('/') ||
  name.startsWith('__MACOSX/') ||
  /(^|\/)\.DS_Store$/.test(name) ||
  /(^|\/)Thumbs\.db$/i.test(name);

export function unzipBounded(bytes: Uint8Array, field: string): Map<string, Uint8Array> {
  let entries = 0;
  let total = 0;
  let inflated: Record<string, Uint8Array>;
  try {
    inflated = unzipSync(bytes, {
      filter: (entry) => {
        if (++entries > ZIP_LIMITS.entries)
          throw new BadRequestError(`${field} has over ${ZIP_LIMITS.entries} entries`);
        if (ignored(entry.name)) return false;
        total += entry.originalSize;
        if (total > ZIP_LIMITS.bytes) throw new BadRequestError(`${field} inflates to over ${ZIP_LIMITS.bytes} bytes`);
        if (entry.originalSize > MIB && entry.originalSize > entry.size * ZIP_LIMITS.ratio)
          throw new BadRequestError(
            `${field}: ${entry.name} inflates to over ${ZIP_LIMITS.ratio} times its compressed size`,
          );
        return true;
      },
    });
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw new BadRequestError(`${field} is not a zip file that can be read (${(error as Error).message})`);
  }
  const files = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(inflated)) {
    // Backslashes as some Windows tools write them; `..` that climbs out of the zip names nothing.
    const path = joinPath('', name.replace(/\\/g, '/'));
    if (path === undefined || path === '') continue;
    files.set(path, data);
  }
  return files;
}

/** Where GitBook's format starts in the zip: its top, or the one folder everything is in (a repository's archive). */
function gitBookProject(files: ReadonlyMap<string, Uint8Array>): string | undefined {
  const marks = (folder: string) =>
    files.has(folder ? `${folder}/.gitbook.yaml` : '.gitbook.yaml') ||
    files.has(folder ? `${folder}/SUMMARY.md` : 'SUMMARY.md');
  if (marks('')) return '';
  const tops = new Set([...files.keys()].map((path) => (path.includes('/') ? path.split('/')[0]! : '')));
  const [only] = tops;
  return tops.size === 1 && only && marks(only) ? only : undefined;
}

export interface ReadZip {
  layout: 'gitbook' | 'markdown-folders';
  content: RepositoryContent;
  problems: FormatProblem[];
}

/** A zip of markdown as content: GitBook's Git Sync format where it has SUMMARY.md or .gitbook.yaml, else markdown folders. */
export function readZip(bytes: Uint8Array, field: string): ReadZip {
  const files = unzipBounded(bytes, field);
  const project = gitBookProject(files);
  if (project !== undefined)
    return { layout: 'gitbook', ...readRepository(files, project ? { projectDirectory: project } : {}) };
  // Hidden files and folders (.git/, .obsidian/) hold no pages or attachments.
  const visible = new Map([...files].filter(([path]) => !path.split('/').some((part) => part.startsWith('.'))));
  return { layout: 'markdown-folders', ...readMarkdownFolders(visible) };
}
