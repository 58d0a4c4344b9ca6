import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from '../src/document/index.js';
import { expectNewestSpecSchema } from './support/spec.js';

/**
 * Round trips of GitBook's tagged blocks, generated: markdown of every block
 * kind, nested in every container, read into a document, written, and read
 * again gives the same document and the same markdown; markdown in GitBook's
 * own forms, with nothing in it the spec cannot hold, is written back as it was.
 */

function withoutKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (name, v: unknown) => (name === 'key' ? undefined : v))) as T;
}

/** Words that read as themselves, and some that markdown would read as more than text unless escaped. */
const safeWord = fc.constantFrom('alpha', 'Beta', 'gamma', 'delta', 'step', 'my_file.py', 'x1', '50%', 'it’s');
const trickyWord = fc.constantFrom('a*b', '_lead', 'c_', '[d]', 'x<b>y', '&amp;', '$$x$$', '$10', '`tick`', 'say "hi"');
const words = (word: fc.Arbitrary<string>) =>
  fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(' '));
const formula = fc.constantFrom('x^2', '\\frac{a}{b}', 'e^{i \\pi} + 1 = 0');
const icon = fc.option(fc.constantFrom('books', 'apple', 'rocket'), { nil: undefined });
const attribute = (name: string, value: string | undefined) => (value === undefined ? '' : ` ${name}="${value}"`);

/** Blocks that hold no other block, in GitBook's forms. */
function leafBlock(word: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    words(word),
    words(safeWord).map((text) => `### ${text}`),
    fc
      .record({ lang: fc.constantFrom('js', 'bash', ''), lines: fc.array(words(word), { minLength: 1, maxLength: 3 }) })
      .map(({ lang, lines }) => `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``),
    fc
      .record({
        title: fc.option(words(safeWord), { nil: undefined }),
        overflow: fc.option(fc.constantFrom('wrap', 'scroll'), { nil: undefined }),
        lineNumbers: fc.option(fc.constantFrom('true', 'false'), { nil: undefined }),
        line: words(safeWord),
      })
      .filter(({ title, overflow, lineNumbers }) => [title, overflow, lineNumbers].some((v) => v !== undefined))
      .map(
        ({ title, overflow, lineNumbers, line }) =>
          `{% code${attribute('title', title)}${attribute('overflow', overflow)}${attribute('lineNumbers', lineNumbers)} %}\n\`\`\`js\n${line}\n\`\`\`\n{% endcode %}`,
      ),
    formula.map((f) => `$$\n${f}\n$$`),
    fc.tuple(words(safeWord), formula).map(([text, f]) => `${text} $$${f}$$ ${text}`),
    fc.constantFrom('a', 'b_c').map((path) => `{% embed url="https://example.com/${path}?v=1" %}`),
    fc
      .constantFrom('p1', 'p2')
      .map((id) => `{% content-ref url="/pages/${id}" %}\n[/pages/${id}](/pages/${id})\n{% endcontent-ref %}`),
    fc.constantFrom('rc1').map((id) => `{% include "/reusable-contents/${id}" %}`),
    fc
      .constantFrom('Pet', 'Order')
      .map(
        (schema) =>
          `{% openapi-schemas spec="petstore" schemas="${schema}" grouped="false" %}\nThe ${schema} object\n{% endopenapi-schemas %}`,
      ),
    fc
      .record({ description: words(safeWord), icon, text: words(safeWord) })
      .map(
        ({ description, icon, text }) =>
          `{% prompt description="${description}"${attribute('icon', icon)} %}\n\`\`\`markdown\n${text}\n\`\`\`\n{% endprompt %}`,
      ),
  );
}

const join = (blocks: string[]) => blocks.join('\n\n');
const items = (content: fc.Arbitrary<string>) =>
  fc.array(fc.array(content, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 });

/** Blocks holding blocks, `depth` containers deep at most. */
function block(word: fc.Arbitrary<string>, depth: number): fc.Arbitrary<string> {
  if (depth === 0) return leafBlock(word);
  const inner = block(word, depth - 1);
  const content = fc.array(inner, { minLength: 1, maxLength: 2 }).map(join);
  return fc.oneof(
    { weight: 2, arbitrary: leafBlock(word) },
    fc
      .record({ style: fc.constantFrom('info', 'warning'), icon, content })
      .map(
        ({ style, icon, content }) =>
          `{% hint style="${style}"${attribute('icon', icon)} %}\n${content}\n{% endhint %}`,
      ),
    items(inner).map(
      (steps) =>
        `{% stepper %}\n${steps.map((step) => `{% step %}\n${join(step)}\n{% endstep %}`).join('\n\n')}\n{% endstepper %}`,
    ),
    items(inner).map(
      (tabs) =>
        `{% tabs %}\n${tabs.map((tab, index) => `{% tab title="Tab ${index}" %}\n${join(tab)}\n{% endtab %}`).join('\n\n')}\n{% endtabs %}`,
    ),
    items(inner).map(
      (columns) =>
        `{% columns %}\n${columns.map((column) => `{% column width="50%" %}\n${join(column)}\n{% endcolumn %}`).join('\n\n')}\n{% endcolumns %}`,
    ),
    items(inner).map(
      (updates) =>
        `{% updates format="full" %}\n${updates.map((update) => `{% update date="2025-12-25" tags="beta" %}\n${join(update)}\n{% endupdate %}`).join('\n\n')}\n{% endupdates %}`,
    ),
    content.map((inside) => `{% if visitor.claims.unsigned.beta %}\n${inside}\n{% endif %}`),
    content.map((inside) => `<details>\n\n<summary>More</summary>\n\n${inside}\n\n</details>`),
    content.map((inside) => `- item\n\n  ${inside.replaceAll('\n', '\n  ')}`),
    content.map((inside) => `> ${inside.replaceAll('\n', '\n> ')}`),
  );
}

const page = (word: fc.Arbitrary<string>, depth: number) =>
  fc.array(block(word, depth), { minLength: 1, maxLength: 3 }).map((blocks) => `${join(blocks)}\n`);

describe('GitBook’s tagged blocks, generated', () => {
  it(
    'read, written and read again give the same document and the same markdown, nested in any container',
    { timeout: 300_000 },
    () => {
      fc.assert(
        fc.property(page(fc.oneof(safeWord, trickyWord), 3), (markdown) => {
          const first = markdownToDocument(markdown);
          expectNewestSpecSchema('JSONDocument', first);
          const written = documentToMarkdown(first);
          const second = markdownToDocument(written);
          expect(withoutKeys(second)).toEqual(withoutKeys(first));
          expect(documentToMarkdown(second)).toBe(written);
        }),
        { numRuns: 60 },
      );
    },
  );

  it('are written back as GitBook wrote them, when each container holds only what the spec lets it hold', () => {
    const fence = words(safeWord).map((line) => `\`\`\`bash\n${line}\n\`\`\``);
    const text = fc.oneof(
      words(safeWord),
      words(safeWord).map((line) => `### ${line}`),
    );
    const inStep = fc.oneof(
      text,
      fence,
      formula.map((f) => `$$\n${f}\n$$`),
      leafBlock(safeWord).filter((b) => b.startsWith('{% code') || b.startsWith('{% content-ref')),
    );
    const exact = fc.oneof(
      leafBlock(safeWord),
      fc
        .array(text, { minLength: 1, maxLength: 2 })
        .map((inside) => `{% hint style="info" %}\n${join(inside)}\n{% endhint %}`),
      items(inStep).map(
        (steps) =>
          `{% stepper %}\n${steps.map((step) => `{% step %}\n${join(step)}\n{% endstep %}`).join('\n\n')}\n{% endstepper %}`,
      ),
      items(inStep).map(
        (columns) =>
          `{% columns %}\n${columns.map((column) => `{% column %}\n${join(column)}\n{% endcolumn %}`).join('\n\n')}\n{% endcolumns %}`,
      ),
      fc
        .array(inStep, { minLength: 1, maxLength: 2 })
        .map((inside) => `{% if visitor.claims.beta %}\n${join(inside)}\n{% endif %}`),
    );
    fc.assert(
      fc.property(fc.array(exact, { minLength: 1, maxLength: 3 }), (blocks) => {
        const markdown = `${join(blocks)}\n`;
        expect(documentToMarkdown(markdownToDocument(markdown))).toBe(markdown);
      }),
      { numRuns: 200 },
    );
  });
});
