import type { Urls } from '../core/urls.js';
import type { FontRow } from './queries.js';
import type { CustomFont } from './schemas.js';

/** Characters of a face's hash in its file name: the name changes with the bytes, so the file can be cached for good. */
const HASH_IN_NAME = 16;

/** Where a face's file is served: `<base>/fonts/<fontId>/<weight>-<hash>.woff2`. */
export function fontFileUrl(urls: Urls, fontId: string, face: { weight: number; sha256: string }): string {
  return urls.service('fonts', fontId, `${face.weight}-${face.sha256.slice(0, HASH_IN_NAME)}.woff2`);
}

/** The weight and hash a served file's name carries, or undefined for a name this service never gives. */
export function parseFontFileName(name: string): { weight: number; hash: string } | undefined {
  const match = /^(\d{1,4})-([0-9a-f]{16})\.woff2$/.exec(name);
  return match ? { weight: Number(match[1]), hash: match[2]! } : undefined;
}

export function presentFont(urls: Urls, font: FontRow, canEdit: boolean): CustomFont {
  return {
    id: font.id,
    custom: true,
    fontFamily: font.font_family,
    fontFaces: font.faces.map((face) => ({
      weight: face.weight,
      sources: [{ url: fontFileUrl(urls, font.id, face), format: 'woff2' as const }],
    })),
    permissions: { edit: canEdit },
  };
}
