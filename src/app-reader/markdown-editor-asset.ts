import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Context } from '../context.js';

/** Where the build puts the editor's bundled writing surface (markdown-editor-build.ts): dist/, from src/ or dist/ alike. */
export const MARKDOWN_EDITOR_BUNDLE = new URL('../../dist/app-reader/markdown-editor.js', import.meta.url);

/** The bundle as served: its bytes, their gzip form, and a validator. */
export interface MarkdownEditorAsset {
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

let asset: MarkdownEditorAsset | null | undefined;

/**
 * Reads the bundle once, when the app starts (its routes await it): null
 * when the service was built without it, and the editor is then the plain
 * markdown field, which works as well, with fewer comforts.
 */
export async function loadMarkdownEditor(): Promise<MarkdownEditorAsset | null> {
  if (asset !== undefined) return asset;
  const body = await readFile(MARKDOWN_EDITOR_BUNDLE).catch(() => null);
  asset = body && {
    body,
    gzip: await promisify(gzip)(body, { level: 9 }),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
  return asset;
}

/** The bundle's address, named by its content so that a browser keeps it until it changes; undefined without one. */
export function markdownEditorAddress(context: Context): string | undefined {
  return asset ? `${context.urls.app('~', 'markdown-editor.js')}?v=${asset.etag.slice(1, 13)}` : undefined;
}
