import { isMap, isScalar, parseDocument, stringify, type YAMLMap } from 'yaml';
import { DEFAULT_CONFIG, type Redirect, type RepositoryConfig } from './model.js';
import { joinPath } from './paths.js';
import type { FormatProblem } from './problems.js';

/**
 * `.gitbook.yaml`, as GitBook reads it: `root` (the content's folder, from
 * the file's), `structure.readme` and `structure.summary` (from the root),
 * `redirects` (an old path of the site to a page file, from the root). A
 * field that cannot be read keeps its default, with a problem.
 */

export const CONFIG_FILE = '.gitbook.yaml';

/** A real one is a few lines; past this the file is not read. */
const MAX_CONFIG_BYTES = 64 * 1024;

export interface ReadConfig {
  config: RepositoryConfig;
  redirects: Redirect[];
  problems: FormatProblem[];
}

/** A scalar's text, or undefined for a mapping, a list, an alias or null. */
function scalarText(node: unknown): string | undefined {
  if (!isScalar(node)) return undefined;
  const { value } = node;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
}

/** The mapping a key of `map` holds; undefined (with a problem) when it holds something else. */
function mappingAt(map: YAMLMap, key: string, problem: (message: string) => void): YAMLMap | undefined {
  const node = map.get(key, true);
  if (node === undefined || (isScalar(node) && node.value === null)) return undefined;
  if (isMap(node)) return node;
  problem(`${key} must be a mapping`);
  return undefined;
}

/** `structure.readme` or `structure.summary`: a markdown file inside the root. */
function structureFile(structure: YAMLMap | undefined, key: 'readme' | 'summary', problem: (message: string) => void) {
  const node = structure?.get(key, true);
  if (node === undefined) return DEFAULT_CONFIG[key];
  const text = scalarText(node);
  const path = text === undefined ? undefined : joinPath('', text);
  if (!path || !/\.md$/i.test(path)) {
    problem(`structure.${key} must be the path of a .md file inside the root`);
    return DEFAULT_CONFIG[key];
  }
  return path;
}

export function readConfig(text: string | undefined, file: string): ReadConfig {
  const problems: FormatProblem[] = [];
  const problem = (message: string, kind: FormatProblem['kind'] = 'bad-config') =>
    problems.push({ kind, path: file, message: `${file}: ${message}` });
  const fallback = () => ({ config: { ...DEFAULT_CONFIG }, redirects: [], problems });
  if (text === undefined || text.trim() === '') return fallback();
  if (text.length > MAX_CONFIG_BYTES) {
    problem(`is over ${MAX_CONFIG_BYTES} bytes; its defaults are used`);
    return fallback();
  }
  const document = parseDocument(text);
  if (document.errors.length > 0 || !isMap(document.contents)) {
    problem('is not a YAML mapping; its defaults are used');
    return fallback();
  }
  const map = document.contents;

  let root = DEFAULT_CONFIG.root;
  const rootNode = map.get('root', true);
  if (rootNode !== undefined) {
    const written = scalarText(rootNode);
    const path = written === undefined ? undefined : joinPath('', written);
    if (path === undefined)
      problem('root must be a folder inside the project', written === undefined ? 'bad-config' : 'outside-root');
    else root = path;
  }
  const structure = mappingAt(map, 'structure', problem);
  const config = {
    root,
    readme: structureFile(structure, 'readme', problem),
    summary: structureFile(structure, 'summary', problem),
  };

  const redirects: Redirect[] = [];
  for (const pair of mappingAt(map, 'redirects', problem)?.items ?? []) {
    const from = scalarText(pair.key);
    const target = scalarText(pair.value);
    if (from === undefined || target === undefined) {
      problem(`redirects: ${from ?? 'a key'} must map a path to a page file`);
      continue;
    }
    const to = joinPath('', target);
    if (to === undefined) problem(`redirects: ${from} leads out of the root (${target})`, 'outside-root');
    else redirects.push({ from, to });
  }
  return { config, redirects, problems };
}

const NO_FOLDING = { lineWidth: 0 };

/**
 * `.gitbook.yaml` for a root, structure and redirects; undefined where every
 * one is GitBook's default and the file says nothing.
 */
export function writeConfig(config: RepositoryConfig, redirects: readonly Redirect[]): string | undefined {
  const sections: string[] = [];
  if (config.root !== DEFAULT_CONFIG.root) sections.push(stringify({ root: `./${config.root}/` }, NO_FOLDING));
  if (config.readme !== DEFAULT_CONFIG.readme || config.summary !== DEFAULT_CONFIG.summary)
    sections.push(stringify({ structure: { readme: config.readme, summary: config.summary } }, NO_FOLDING));
  // A Map keeps the redirects' order, which an object would not for keys that read as numbers.
  if (redirects.length > 0)
    sections.push(stringify({ redirects: new Map(redirects.map(({ from, to }) => [from, to])) }, NO_FOLDING));
  return sections.length === 0 ? undefined : sections.join('\n');
}
