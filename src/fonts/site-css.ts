import { createHash } from 'node:crypto';
import type { Context } from '../context.js';
import { fontFileUrl } from './present.js';
import { findFonts, type FontRow } from './queries.js';

/** What a site's styling says of its fonts: a default font's name, or a font definition. */
export interface FontStyling {
  font: unknown;
  monospaceFont: unknown;
}

/** The id of the organization's own font a styling field names (a definition with `custom: true`), if any. */
function customFontId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, custom } = value as { id?: unknown; custom?: unknown };
  return custom === true && typeof id === 'string' ? id : undefined;
}

/** Whether the styling names a custom font: only then does a page link the fonts stylesheet. */
export function namesCustomFont(styling: FontStyling): boolean {
  return customFontId(styling.font) !== undefined || customFontId(styling.monospaceFont) !== undefined;
}

const FALLBACK_TEXT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const FALLBACK_MONO = 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace';
/** What a stored family name may hold (its schema's pattern), checked again before it reaches a stylesheet. */
const SAFE_FAMILY = /^[^"'\\;{}<>\u0000-\u001f\u007f]{1,50}$/;

/**
 * The `@font-face` rules of the custom fonts a site's styling names, with
 * the reader's text and code fonts set to them. A font is looked up in the
 * site's own organization only: a definition naming another organization's
 * font, or a deleted one, adds nothing and the site keeps its default font.
 * The files are this service's, whatever URLs the stored definition holds.
 */
export async function customFontCss(
  context: Context,
  organizationId: string,
  styling: FontStyling,
): Promise<{ css: string; etag: string }> {
  const textId = customFontId(styling.font);
  const monoId = customFontId(styling.monospaceFont);
  const ids = [...new Set([textId, monoId].filter((id) => id !== undefined))];
  const fonts = await findFonts(context.db, organizationId, ids);
  const family = (font: FontRow) => `"quire-${font.id}"`;
  const rules: string[] = [];
  for (const font of fonts) {
    for (const face of font.faces) {
      rules.push(
        `@font-face { font-family: ${family(font)}; src: url("${fontFileUrl(context.urls, font.id, face)}") ` +
          `format("woff2"); font-weight: ${face.weight}; font-style: normal; font-display: swap; }`,
      );
    }
  }
  const stack = (id: string | undefined, fallback: string) => {
    const font = fonts.find((candidate) => candidate.id === id);
    if (!font) return undefined;
    const named = SAFE_FAMILY.test(font.font_family) ? `"${font.font_family}", ` : '';
    return `${family(font)}, ${named}${fallback}`;
  };
  const text = stack(textId, FALLBACK_TEXT);
  const mono = stack(monoId, FALLBACK_MONO);
  const variables = [text && `--font: ${text};`, mono && `--mono: ${mono};`].filter(Boolean);
  if (variables.length > 0) rules.push(`:root { ${variables.join(' ')} }`);
  const css = rules.join('\n');
  return { css, etag: `"${createHash('sha256').update(css).digest('base64url').slice(0, 22)}"` };
}
