import { describe, expect, it, vi } from 'vitest';
import type * as BlockTags from '../src/document/block-tags.js';
import { checkDocumentBounds, documentToMarkdown, markdownToDocument } from '../src/document/index.js';
import { readAttributes } from '../src/document/tag-attributes.js';

/**
 * Reading GitBook's tags stays linear in the page, whatever their shape: the
 * work is counted (each look at a block or a line for the tag it is), not
 * timed, and a page twice as long takes at most about twice the looks.
 */

const looks = vi.hoisted(() => ({ count: 0 }));

vi.mock('../src/document/block-tags.js', async (importOriginal) => {
  const original = await importOriginal<typeof BlockTags>();
  return {
    ...original,
    tagOf: (node: Parameters<typeof BlockTags.tagOf>[0]) => {
      looks.count += 1;
      return original.tagOf(node);
    },
    tagOfLine: (line: Parameters<typeof BlockTags.tagOfLine>[0]) => {
      looks.count += 1;
      return original.tagOfLine(line);
    },
  };
});

function looksAt(markdown: string): { looks: number; blocks: number } {
  looks.count = 0;
  const document = markdownToDocument(markdown);
  return { looks: looks.count, blocks: document.nodes.length };
}

/** The looks at `n` and `2n` repeats of a shape: the larger at most about twice the smaller, and a few per line. */
function expectLinear(shape: (n: number) => string, n: number): void {
  const small = looksAt(shape(n));
  const large = looksAt(shape(2 * n));
  const lines = shape(2 * n).split('\n').length;
  expect(large.looks, shape(1)).toBeLessThanOrEqual(2 * small.looks + 16);
  expect(large.looks, shape(1)).toBeLessThanOrEqual(8 * lines);
  expect(large.blocks).toBeGreaterThan(0);
}

describe('reading GitBook’s tags', () => {
  it('reads 2,000 unclosed {% step %} lines as 2,000 paragraphs, with work linear in them', () => {
    const { blocks } = looksAt('{% step %}\n'.repeat(2_000));
    expect(blocks).toBe(2_000);
    expectLinear((n) => '{% step %}\n'.repeat(n), 1_000);
  });

  it('stays linear on unclosed, stray and deeply nested steppers, columns, updates, conditions, wrappers, hints, tabs and HTML expandables', () => {
    const shapes: Array<(n: number) => string> = [
      (n) => '{% stepper %}\n{% step %}\n'.repeat(n),
      (n) => '{% endstep %}\n{% endstepper %}\n{% endcolumns %}\n{% endif %}\n\n'.repeat(n),
      (n) => '{% stepper %}\n{% step %}\n'.repeat(n) + 'core\n' + '{% endstep %}\n{% endstepper %}\n'.repeat(n),
      (n) => '{% columns %}\n\n{% if visitor.a %}\n\n'.repeat(n) + '{% endcolumns %}\n\n'.repeat(n),
      (n) => '{% updates %}\n{% update date="2025-01-01" %}\n'.repeat(n),
      (n) => '{% code title="a" %}\n\n{% content-ref url="x" %}\n\n{% prompt description="p" %}\n\n'.repeat(n),
      (n) => '{% code %}\n```\nx\n```\n'.repeat(n) + '{% endcode %}\n'.repeat(n),
      (n) => '{% hint style="info" %}\n\n'.repeat(n),
      (n) => '{% endtab %}\n{% endtabs %}\n{% endhint %}\n{% endfile %}\n\n'.repeat(n),
      (n) => '{% tabs %}\n\n{% hint %}\n\n'.repeat(n) + '{% endtabs %}\n\n'.repeat(n),
      (n) => '{% tabs %}\n\n{% tab title="a" %}\n\n'.repeat(n) + '{% endtab %}\n\n{% endtabs %}\n\n'.repeat(n),
      (n) => '| a |\n| - |\n' + '{% endtab %}\n'.repeat(n),
      // HTML expandables, unclosed, and with unclosed summaries: a block each. One HTML block holding
      // thousands of summaries is one look; document-blocks.test.ts keeps it under its hang guard.
      (n) => '<details>\n\n'.repeat(n),
      (n) => '<details>\n<summary>x\n'.repeat(n),
    ];
    for (const shape of shapes) expectLinear(shape, 250);
  });

  it('keeps steppers nested a thousand deep within the nesting bound, their text, and a document it takes back', () => {
    const depth = 1_000;
    const markdown =
      '{% stepper %}\n{% step %}\n'.repeat(depth) + 'core\n' + '{% endstep %}\n{% endstepper %}\n'.repeat(depth);
    const document = markdownToDocument(markdown);
    expect(JSON.stringify(document)).toContain('"core"');
    expect(checkDocumentBounds(document, 'document')).toBeGreaterThan(0);
    expect(documentToMarkdown(document)).toContain('core');
  });
});

describe('reading tag attributes', () => {
  it('reads a title holding thousands of attribute-like pieces in one pass over it', () => {
    // Each ` x="` in a title is a place a value could end; a reader that went back over the title for each would be quadratic.
    const title = ' x="y'.repeat(20_000);
    const attributes = readAttributes(`title="${title}"`);
    expect(attributes?.get('title')).toBe(title);
    expect(readAttributes(`title="${title}`)).toBeNull();
  });

  it('reads quoted values, ignores none, and refuses what it cannot read', () => {
    expect(readAttributes(`title="a" icon='b' extra="c"`)).toEqual(
      new Map([
        ['title', 'a'],
        ['icon', 'b'],
        ['extra', 'c'],
      ]),
    );
    expect(readAttributes('title="say "hi" %} 50%"')?.get('title')).toBe('say "hi" %} 50%');
    for (const unreadable of ['title=a', 'title="a', 'defaultExpanded="full”', 'x', 'url="a"b"', 'a="1" a="2"']) {
      expect(readAttributes(unreadable), unreadable).toBeNull();
    }
  });
});
