import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatter } from 'micromark-extension-frontmatter';
import { parseDocument } from 'yaml';
import { BadRequestError } from '../core/api-errors.js';
import { withinParserLimits } from './markdown-tree.js';

export interface Frontmatter {
  data: Record<string, unknown>;
  /** The markdown after the frontmatter and its closing line break, unchanged. */
  body: string;
}

/** The YAML frontmatter of a page (a `---` block at the very start) and the markdown after it. */
export function splitFrontmatter(markdown: string): Frontmatter {
  // Frontmatter opens with the very first line; without it there is nothing to parse.
  if (!markdown.startsWith('---')) return { data: {}, body: markdown };
  const tree = withinParserLimits(() =>
    fromMarkdown(markdown, { extensions: [frontmatter()], mdastExtensions: [frontmatterFromMarkdown()] }),
  );
  const first = tree.children[0];
  if (first?.type !== 'yaml' || !first.position) return { data: {}, body: markdown };
  const end = first.position.end.offset!;
  return { data: parseYamlMapping(first.value), body: markdown.slice(end + lineBreakLength(markdown, end)) };
}

function lineBreakLength(text: string, at: number): number {
  if (text.startsWith('\r\n', at)) return 2;
  return text[at] === '\n' || text[at] === '\r' ? 1 : 0;
}

function parseYamlMapping(source: string): Record<string, unknown> {
  const document = parseDocument(source);
  const error = document.errors[0];
  if (error) throw new BadRequestError(`document frontmatter is not valid YAML: ${firstLine(error.message)}`);
  let value: unknown;
  try {
    value = document.toJS();
  } catch (cause) {
    // Unresolved or excessive aliases only surface when the document is turned into values.
    throw new BadRequestError(`document frontmatter is not valid YAML: ${firstLine((cause as Error).message)}`);
  }
  // `---\n---` is an empty frontmatter, not a malformed one.
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequestError('document frontmatter must be a YAML mapping of names to values');
  }
  return value as Record<string, unknown>;
}

/** yaml's messages end in a source excerpt; the sentence before it is the useful part. */
function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/:$/, '');
}
