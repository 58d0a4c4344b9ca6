import { CONFIG_FILE, writeConfig } from './config.js';
import { ASSETS_FOLDER, type NestedEntry, type RepositoryContent, type RepositoryPage } from './model.js';
import { folderOf, joinPath } from './paths.js';
import { writeSummary } from './summary-write.js';

export interface WriteOptions {
  /** The folder of `.gitbook.yaml` in the repository; its top by default. */
  projectDirectory?: string;
}

const encoder = new TextEncoder();

function* pagesOf(entries: readonly NestedEntry[]): Generator<RepositoryPage> {
  for (const entry of entries) {
    if (entry.kind !== 'page') continue;
    yield entry;
    yield* pagesOf(entry.children);
  }
}

/**
 * The files GitBook's Git Sync writes for the content, by repository path:
 * `.gitbook.yaml` where the root, structure or redirects need one, the
 * summary, each page's markdown at its path, and the assets.
 */
export function writeRepository(content: RepositoryContent, options: WriteOptions = {}): Map<string, Uint8Array> {
  const project = joinPath('', options.projectDirectory ?? '') ?? '';
  const at = (folder: string, path: string) => (folder ? `${folder}/${path}` : path);
  const root = joinPath(project, content.config.root) ?? project;
  const files = new Map<string, Uint8Array>();

  const config = writeConfig(content.config, content.redirects);
  if (config !== undefined) files.set(at(project, CONFIG_FILE), encoder.encode(config));
  files.set(
    at(root, content.config.summary),
    encoder.encode(writeSummary(content.entries, folderOf(content.config.summary))),
  );
  for (const entry of content.entries) {
    for (const page of pagesOf(entry.kind === 'group' ? entry.children : [entry])) {
      files.set(at(root, page.path), encoder.encode(page.markdown));
    }
  }
  for (const file of content.files) files.set(at(root, `${ASSETS_FOLDER}${file.name}`), file.bytes);
  return files;
}
