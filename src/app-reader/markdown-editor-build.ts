/**
 * Bundles the editor's writing surface (markdown-editor.client.mjs, with
 * CodeMirror) into one minified script in dist/, as `npm run build` and
 * `npm start` build the service. esbuild's WebAssembly build: the same
 * bundle on every platform, with no native binary to install. The bundle
 * names what it was made from, so an unchanged one is not made again.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKDOWN_EDITOR_BUNDLE } from './markdown-editor-asset.js';

const entry = new URL('../../src/app-reader/markdown-editor.client.mjs', import.meta.url);
const lockfile = new URL('../../package-lock.json', import.meta.url);

/** What the bundle is made from: its entry and the versions of what it imports. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [entry, lockfile]) hash.update(await readFile(file));
  return hash.digest('hex').slice(0, 32);
}

export async function buildMarkdownEditor(): Promise<'built' | 'current'> {
  const made = `/* made from ${await sourceHash()} */\n`;
  const existing = await readFile(MARKDOWN_EDITOR_BUNDLE, 'utf8').catch(() => '');
  if (existing.startsWith(made)) return 'current';
  const esbuild = await import('esbuild-wasm');
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2022'],
    banner: { js: '/*! CodeMirror 6 (MIT licence, Marijn Haverbeke and others): https://codemirror.net */' },
    legalComments: 'eof',
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error('esbuild made no bundle of the markdown editor');
  await mkdir(dirname(fileURLToPath(MARKDOWN_EDITOR_BUNDLE)), { recursive: true });
  await writeFile(MARKDOWN_EDITOR_BUNDLE, made + code);
  return 'built';
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const outcome = await buildMarkdownEditor();
  if (outcome === 'built') console.log(`Bundled the markdown editor: ${fileURLToPath(MARKDOWN_EDITOR_BUNDLE)}`);
}
