import { escapeTagValue } from './tag-attributes.js';
import { leaf, paragraph, textNode } from './build.js';
import { imageRefFromUrl, refFromUrl } from './links.js';
import type { DocumentBlockFile, DocumentBlockParagraph } from './types.js';

/**
 * Files in markdown: `{% file src="/files/<id>" %}`, optionally followed by a
 * caption and `{% endfile %}`. `src` names an upload the way an image's URL
 * does (links.ts).
 */

export function fileTag(src: string): string {
  return `{% file src="${escapeTagValue(src)}" %}`;
}

/**
 * GitBook's file block for a file of the space, where the block around can
 * hold one. The spec's file block names nothing but a file of the space and
 * has no caption, so a URL, or a file where no file block may go, is a link
 * to it, labelled with the caption.
 */
export function fileBlock(
  file: { src: string; caption: string },
  holdsFiles: boolean,
): DocumentBlockFile | DocumentBlockParagraph {
  const ref = imageRefFromUrl(file.src);
  if (ref.kind === 'file' && holdsFiles) return { object: 'block', type: 'file', data: { ref }, isVoid: true };
  const label = textNode([leaf(file.caption || file.src)]);
  return paragraph([{ object: 'inline', type: 'link', data: { ref: refFromUrl(file.src) }, nodes: [label] }]);
}
