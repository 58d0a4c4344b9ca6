import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkDocumentBounds, checkMarkdownBounds, MARKDOWN_LIMITS } from '../src/document/index.js';
import { finishes } from './support/hang-guard.js';

const passes = (markdown: string) => expect(() => checkMarkdownBounds(markdown, 'body/markdown')).not.toThrow();
const refuses = (markdown: string, message: RegExp) =>
  expect(() => checkMarkdownBounds(markdown, 'body/markdown')).toThrow(message);

describe('the markdown limits checked before any parse', () => {
  it('let real pages through: this README, deep but sane lists, code, tables, breaks', () => {
    passes(readFileSync(new URL('../README.md', import.meta.url), 'utf8'));
    passes(Array.from({ length: 16 }, (_, level) => `${'  '.repeat(level)}- level ${level}`).join('\n'));
    passes(Array.from({ length: 12 }, (_, level) => `${'    '.repeat(level)}1. level ${level}`).join('\n'));
    passes(`${'> '.repeat(10)}a quote ten deep`);
    passes('- a\n\n'.repeat(5_000)); // one loose list of many items
    passes('- a\n'.repeat(20_000)); // one tight list
    passes('> a long quote\n'.repeat(20_000)); // one quote of many lines
    passes(`| a | b |\n|---|---|\n${'| **x** | _y_ |\n'.repeat(3_000)}`); // each row is inline content of its own
    passes(`# Title\n\n${'Some *emphasis* and __strong__ text.\n\n'.repeat(5_000)}`);
    passes(`${'- - -\n'.repeat(100)}${'- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\n'}`); // thematic breaks
    passes(`\`\`\`\n${'1. '.repeat(10_000)}\n${'*a'.repeat(10_000)}\n\`\`\`\n`); // fenced code is not markdown
    passes(`~~~~\n\`\`\`\n${'> '.repeat(1_000)}\n~~~~\n`);
    passes(`${' '.repeat(200)}indented code is not nesting\n`);
  });

  it('refuse containers nested too deep on one line, by markers or by indentation', () => {
    for (const marker of ['1. ', '2) ', '- ', '* ', '+ ', '> ', '>', '> - ', '>\t']) {
      passes(`${marker.repeat(MARKDOWN_LIMITS.depth / 2)}text`);
      refuses(
        `${marker.repeat(MARKDOWN_LIMITS.depth + 1)}text`,
        /^body\/markdown nests too deeply: quotes and lists \d+ deep on one line \(at most 32\)/,
      );
    }
    refuses(Array.from({ length: 200 }, (_, level) => `${'  '.repeat(level)}- item`).join('\n'), /nests too deeply/);
    refuses(`${' '.repeat(200)}- item`, /nests too deeply/);
  });

  it('refuse what a fence opened inside a container cannot hide', () => {
    // The quote, and its fenced code with it, ends where the next line has no `>`.
    refuses(`> \`\`\`\n${'1. '.repeat(6_000)}`, /nests too deeply/);
    refuses(`- \`\`\`\n${'*a'.repeat(3_000)}`, /emphasis delimiters/);
  });

  it('refuse too many quote and list blocks, counting nested lists and quotes after blank lines', () => {
    passes('> quote\n\n'.repeat(1_999));
    refuses('> quote\n\n'.repeat(2_001), /^body\/markdown has more than 2000 quote and list blocks/);
    refuses('- item\n\ntext\n\n'.repeat(2_001), /quote and list blocks/);
    refuses('- a\n  - b\n'.repeat(1_001), /quote and list blocks/);
    refuses('> > > > q\n\n'.repeat(501), /quote and list blocks/);
  });

  it('refuse too many emphasis delimiters in one paragraph, each paragraph counted apart', () => {
    for (const run of ['*a', '_a', '~a', '**a', 'a*b ']) {
      refuses(
        run.repeat(MARKDOWN_LIMITS.delimiterRuns + 1),
        /^body\/markdown has more than 2000 emphasis delimiters \(\*, _, ~\) in one paragraph/,
      );
    }
    refuses('*_'.repeat(1_001), /emphasis delimiters/);
    refuses('*a\n'.repeat(2_001), /emphasis delimiters/); // lines of one paragraph
    passes('*a\n\n'.repeat(10_000)); // separate paragraphs
    passes('- *a*\n'.repeat(10_000)); // separate list items
  });

  it('reads a MiB in one linear pass', () => {
    const page = 'Hello world, this is *some* text with a [link](https://example.com) and `code`.\n\n'.repeat(13_000);
    checkMarkdownBounds(page, 'warm-up');
    // About 10 ms on an idle machine; a pass that went back over what it read would take minutes on a MiB.
    finishes(() => checkMarkdownBounds(page, 'body/markdown'));
  });
});

describe('the JSON document limits', () => {
  const nested = (depth: number): unknown => {
    let node: unknown = { object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [] }] };
    for (let i = 0; i < depth; i += 1) node = { object: 'block', type: 'blockquote', data: {}, nodes: [node] };
    return { object: 'document', data: {}, nodes: [node] };
  };

  it('let documents of ordinary depth through and refuse deeper ones, walking without recursion', () => {
    expect(checkDocumentBounds(nested(40), 'body/document')).toBeGreaterThan(80);
    expect(() => checkDocumentBounds(nested(100), 'body/document')).toThrow(
      /^body\/document nests too deeply: more than 128 levels of objects and arrays/,
    );
    expect(() => checkDocumentBounds(nested(100_000), 'body/document')).toThrow(/nests too deeply/);
  });

  it('refuse documents of more nodes than any page', () => {
    const wide = {
      object: 'document',
      data: {},
      nodes: Array.from({ length: 100_001 }, () => ({ object: 'block', type: 'divider', data: {} })),
    };
    expect(() => checkDocumentBounds(wide, 'body/document')).toThrow(/^body\/document has more than 200000 nodes/);
  });
});
