import type { ElementContent } from 'hast';
import { common, createLowlight } from 'lowlight';

const lowlight = createLowlight(common);

/** Past this many characters a code block is shown plain: highlighting it would cost more than it helps a reader. */
const MAX_HIGHLIGHTED_CHARACTERS = 100_000;

/** Names GitBook's editor and fences use that highlight.js knows by another. */
const ALIASES: Record<string, string> = { sh: 'bash', zsh: 'bash', shell: 'bash', yml: 'yaml', html: 'xml' };

/**
 * The code's tokens as hast spans with highlight.js classes, or undefined
 * when the language is unknown (or not named) or the code too long: the
 * caller then shows it plain.
 */
export function highlightCode(code: string, syntax: string | undefined): ElementContent[] | undefined {
  if (!syntax || code.length > MAX_HIGHLIGHTED_CHARACTERS) return undefined;
  const language = ALIASES[syntax.toLowerCase()] ?? syntax.toLowerCase();
  if (!lowlight.registered(language)) return undefined;
  return lowlight.highlight(language, code).children as ElementContent[];
}
