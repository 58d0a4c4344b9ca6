import { describe, expect, it } from 'vitest';
import {
  collectReferences,
  documentToMarkdown,
  evaluateExpressions,
  markdownToDocument,
  rewriteUrls,
  splitLeadingHeading,
  splitFrontmatter,
  type JSONDocument,
} from '../src/document/index.js';
import { BadRequestError } from '../src/core/errors.js';
import { expectSpecSchema } from './support/spec.js';

/** A realistic page: GitBook's Git Sync conventions, GitHub's extensions, and every block type the conversion knows. */
const PAGE = `---
description: Installing and running Quire
---
# Getting started

Welcome to **Quire**, a *self-hosted* ~~wiki~~ docs tool with \`inline code\`.
Soft breaks are spaces, a hard\\
break is not. Read [the intro](/pages/intro1), [setup](/pages/setup2#install),
[this section](#options) and [the PDF](/files/pdf3); or <https://example.com>.

## Lists

* Plain item
* Item with **bold** and a [link](https://example.com/x)
  * Nested item

3. Third
4. Fourth

- [x] Done task
- [ ] Open task

### Code

\`\`\`ts
const answer = 42;

console.log(answer);
\`\`\`

#### Quotes and hints

> A quote with *emphasis*.
>
> > A nested quote.

{% hint style="warning" %}
Back up **first**.

* a list in a hint
{% endhint %}

> [!TIP]
> A GitHub alert.

| Name | Value | Notes |
| :--- | :---: | ----: |
| one | \`1\` | [more](/pages/p1) |
| two | 2<br>lines | |

![Diagram](/files/diagram1 "How it fits") ![Logo](https://example.com/logo.png)

---

<div>raw HTML</div>

<!-- an editor's note -->

Text with an ![icon](/files/icon2) and a [reference link][ref].

[ref]: /pages/ref3
`;

type Json = Record<string, unknown>;

/** The document without its keys, which the structure assertions do not care about. */
function withoutKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (name, v: unknown) => (name === 'key' ? undefined : v))) as T;
}

const mark = (type: string) => ({ object: 'mark', type });
const leaf = (text: string, ...marks: string[]) => ({ object: 'leaf', text, marks: marks.map(mark) });
const text = (...leaves: Json[]) => ({ object: 'text', leaves });
const plain = (value: string) => text(leaf(value));
const empty = plain('');
const paragraph = (...nodes: Json[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const link = (ref: Json, label: string) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [plain(label)] });
const item = (nodes: Json[], data: Json = {}) => ({ object: 'block', type: 'list-item', data, nodes });
const inlineImage = (ref: Json, alt: string) => ({
  object: 'inline',
  type: 'inline-image',
  data: { ref, alt },
  isVoid: true,
});

function blocksOf(markdown: string): Json[] {
  return withoutKeys(markdownToDocument(markdown)).nodes as unknown as Json[];
}

describe('markdownToDocument', () => {
  const document = markdownToDocument(PAGE);
  const blocks = withoutKeys(document).nodes as unknown as Json[];

  it('gives one block per markdown block, frontmatter, definitions and comments having none', () => {
    expect(blocks.map((block) => block.type)).toEqual([
      'heading-1',
      'paragraph',
      'heading-2',
      'list-unordered',
      'list-ordered',
      'list-tasks',
      'heading-3',
      'code',
      'heading-3',
      'blockquote',
      'hint',
      'hint',
      'table',
      'images',
      'divider',
      'code',
      'paragraph',
    ]);
  });

  it('is valid against the spec’s JSONDocument schema', () => {
    expectSpecSchema('JSONDocument', document);
  });

  it('turns formatting into marks, soft breaks into spaces, and /pages and /files links into references', () => {
    expect(blocks[0]).toEqual({ object: 'block', type: 'heading-1', data: {}, nodes: [plain('Getting started')] });
    expect(blocks[1]).toEqual(
      paragraph(
        text(
          leaf('Welcome to '),
          leaf('Quire', 'bold'),
          leaf(', a '),
          leaf('self-hosted', 'italic'),
          leaf(' '),
          leaf('wiki', 'strikethrough'),
          leaf(' docs tool with '),
          leaf('inline code', 'code'),
          leaf('. Soft breaks are spaces, a hard\nbreak is not. Read '),
        ),
        link({ kind: 'page', page: 'intro1' }, 'the intro'),
        plain(', '),
        link({ kind: 'anchor', anchor: 'install', page: 'setup2' }, 'setup'),
        plain(', '),
        link({ kind: 'anchor', anchor: 'options' }, 'this section'),
        plain(' and '),
        link({ kind: 'file', file: 'pdf3' }, 'the PDF'),
        plain('; or '),
        link({ kind: 'url', url: 'https://example.com' }, 'https://example.com'),
        plain('.'),
      ),
    );
  });

  it('maps bullet, numbered and task lists, nesting included', () => {
    expect(blocks[3]).toEqual({
      object: 'block',
      type: 'list-unordered',
      data: {},
      nodes: [
        item([paragraph(plain('Plain item'))]),
        item([
          paragraph(
            text(leaf('Item with '), leaf('bold', 'bold'), leaf(' and a ')),
            link({ kind: 'url', url: 'https://example.com/x' }, 'link'),
            empty,
          ),
          { object: 'block', type: 'list-unordered', data: {}, nodes: [item([paragraph(plain('Nested item'))])] },
        ]),
      ],
    });
    expect(blocks[4]).toMatchObject({ type: 'list-ordered', data: { start: 3 } });
    expect(blocks[5]).toEqual({
      object: 'block',
      type: 'list-tasks',
      data: {},
      nodes: [
        item([paragraph(plain('Done task'))], { checked: true }),
        item([paragraph(plain('Open task'))], { checked: false }),
      ],
    });
  });

  it('maps a fenced code block to code lines with its syntax', () => {
    const line = (value: string) => ({ object: 'block', type: 'code-line', data: {}, nodes: [plain(value)] });
    expect(blocks[7]).toEqual({
      object: 'block',
      type: 'code',
      data: { syntax: 'ts' },
      nodes: [line('const answer = 42;'), line(''), line('console.log(answer);')],
    });
  });

  it('maps quotes, GitBook hints (content hugging the tags) and GitHub alerts', () => {
    expect(blocks[9]).toEqual({
      object: 'block',
      type: 'blockquote',
      data: {},
      nodes: [
        paragraph(text(leaf('A quote with '), leaf('emphasis', 'italic'), leaf('.'))),
        { object: 'block', type: 'blockquote', data: {}, nodes: [paragraph(plain('A nested quote.'))] },
      ],
    });
    // `{% endhint %}` right after the list is read by the parser as part of its last item; it still closes the hint.
    expect(blocks[10]).toEqual({
      object: 'block',
      type: 'hint',
      data: { style: 'warning' },
      nodes: [
        paragraph(text(leaf('Back up '), leaf('first', 'bold'), leaf('.'))),
        { object: 'block', type: 'list-unordered', data: {}, nodes: [item([paragraph(plain('a list in a hint'))])] },
      ],
    });
    expect(blocks[11]).toEqual({
      object: 'block',
      type: 'hint',
      data: { style: 'success' },
      nodes: [paragraph(plain('A GitHub alert.'))],
    });
  });

  it('maps a table to text columns, ordered records and one fragment per cell', () => {
    const cell = (name: string, ...nodes: Json[]) => ({
      object: 'fragment',
      fragment: name,
      nodes: [paragraph(...nodes)],
    });
    expect(blocks[12]).toEqual({
      object: 'block',
      type: 'table',
      data: {
        view: { type: 'grid', columns: ['c1', 'c2', 'c3'], hideHeader: false },
        records: {
          r1: { orderIndex: 'a0', values: { c1: 'r1c1', c2: 'r1c2', c3: 'r1c3' } },
          r2: { orderIndex: 'a1', values: { c1: 'r2c1', c2: 'r2c2', c3: 'r2c3' } },
        },
        definition: {
          c1: { id: 'c1', title: 'Name', type: 'text', textAlignment: 'left' },
          c2: { id: 'c2', title: 'Value', type: 'text', textAlignment: 'center' },
          c3: { id: 'c3', title: 'Notes', type: 'text', textAlignment: 'right' },
        },
      },
      isVoid: true,
      fragments: [
        cell('r1c1', plain('one')),
        cell('r1c2', text(leaf('1', 'code'))),
        cell('r1c3', empty, link({ kind: 'page', page: 'p1' }, 'more'), empty),
        cell('r2c1', plain('two')),
        cell('r2c2', plain('2\nlines')),
        cell('r2c3', empty),
      ],
    });
  });

  it('maps a paragraph of images to an image block, other images to inline images', () => {
    expect(blocks[13]).toEqual({
      object: 'block',
      type: 'images',
      data: {},
      isVoid: false,
      nodes: [
        {
          object: 'block',
          type: 'image',
          data: { ref: { kind: 'file', file: 'diagram1' }, alt: 'Diagram' },
          isVoid: true,
          fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(plain('How it fits'))] }],
        },
        {
          object: 'block',
          type: 'image',
          data: { ref: { kind: 'url', url: 'https://example.com/logo.png' }, alt: 'Logo' },
          isVoid: true,
          fragments: [],
        },
      ],
    });
    expect(blocks[16]).toEqual(
      paragraph(
        plain('Text with an '),
        inlineImage({ kind: 'file', file: 'icon2' }, 'icon'),
        plain(' and a '),
        link({ kind: 'page', page: 'ref3' }, 'reference link'),
        plain('.'),
      ),
    );
  });

  it('maps a thematic break to a divider and shows an HTML block as html code', () => {
    expect(blocks[14]).toEqual({ object: 'block', type: 'divider', data: {}, isVoid: true });
    expect(blocks[15]).toMatchObject({
      type: 'code',
      data: { syntax: 'html' },
      nodes: [{ nodes: [plain('<div>raw HTML</div>')] }],
    });
  });

  it('survives a round trip through markdown unchanged', () => {
    expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
  });

  it('numbers keys in document order, so the same markdown gives the same keys', () => {
    const keys: string[] = [];
    JSON.stringify(document, (name, value: unknown) => {
      if (name === 'key') keys.push(value as string);
      return value;
    });
    expect(keys.slice(0, 4)).toEqual(['1', '2', '3', '4']);
    expect(new Set(keys).size).toBe(keys.length);
    expect(markdownToDocument(PAGE)).toEqual(document);
  });

  it('gives an empty document for empty markdown, and empty markdown back', () => {
    expect(markdownToDocument('')).toEqual({ object: 'document', data: {}, nodes: [] });
    expect(documentToMarkdown(markdownToDocument(''))).toBe('');
    expect(markdownToDocument('---\ntitle: x\n---\n')).toEqual({ object: 'document', data: {}, nodes: [] });
  });

  it('fits what markdown nests into what each container may hold', () => {
    const markdown = [
      '> ```',
      '> code in a quote',
      '> ```',
      '>',
      '> | a | b |',
      '> | - | - |',
      '> | 1 | 2 |',
      '',
      '{% hint style="danger" %}',
      '> a quote in a hint',
      '{% endhint %}',
      '',
      '* ![in a list](/files/f1)',
      '',
      '*',
    ].join('\n');
    const document = markdownToDocument(markdown);
    expectSpecSchema('JSONDocument', document);
    expect(withoutKeys(document).nodes).toEqual([
      {
        object: 'block',
        type: 'blockquote',
        data: {},
        nodes: [paragraph(text(leaf('code in a quote', 'code'))), paragraph(plain('a | b')), paragraph(plain('1 | 2'))],
      },
      { object: 'block', type: 'hint', data: { style: 'danger' }, nodes: [paragraph(plain('a quote in a hint'))] },
      {
        object: 'block',
        type: 'list-unordered',
        data: {},
        nodes: [
          item([paragraph(empty, inlineImage({ kind: 'file', file: 'f1' }, 'in a list'), empty)]),
          item([paragraph(empty)]),
        ],
      },
    ]);
    expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
  });

  it('reads every hint style and GitHub alert, and leaves an unclosed hint tag as text', () => {
    const hint = (style: string, body: string) => ({
      object: 'block',
      type: 'hint',
      data: { style },
      nodes: [paragraph(plain(body))],
    });
    expect(
      blocksOf(
        ['info', 'warning', 'danger', 'success']
          .map((s) => `{% hint style="${s}" %}\n${s} text\n{% endhint %}`)
          .join('\n\n'),
      ),
    ).toEqual([
      hint('info', 'info text'),
      hint('warning', 'warning text'),
      hint('danger', 'danger text'),
      hint('success', 'success text'),
    ]);
    expect(
      blocksOf(['NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION'].map((a) => `> [!${a}]\n> ${a} text`).join('\n\n')),
    ).toEqual([
      hint('info', 'NOTE text'),
      hint('success', 'TIP text'),
      hint('info', 'IMPORTANT text'),
      hint('warning', 'WARNING text'),
      hint('danger', 'CAUTION text'),
    ]);
    expect(blocksOf('{% hint style="info" %}\nnever closed')).toEqual([
      paragraph(plain('{% hint style="info" %}')),
      paragraph(plain('never closed')),
    ]);
    expect(blocksOf('> [!NOTE] not alone on its line')).toEqual([
      { object: 'block', type: 'blockquote', data: {}, nodes: [paragraph(plain('[!NOTE] not alone on its line'))] },
    ]);
  });

  it('closes a hint GitBook-style even where markdown reads the closing tag as part of a table or nested list', () => {
    const nested = blocksOf('{% hint style="info" %}\n* outer\n  * inner\n{% endhint %}\nafter');
    expect(nested.map((block) => block.type)).toEqual(['hint', 'paragraph']);
    // A hint holds no table, so its rows become paragraphs.
    expect(blocksOf('{% hint style="info" %}\ntext\n\n| a |\n| - |\n| 1 |\n{% endhint %}')).toEqual([
      {
        object: 'block',
        type: 'hint',
        data: { style: 'info' },
        nodes: [paragraph(plain('text')), paragraph(plain('a')), paragraph(plain('1'))],
      },
    ]);
  });

  it('keeps the content of containers nested past 16 levels, without the nesting', () => {
    let block = markdownToDocument(`${'>'.repeat(40)} deep`).nodes[0] as unknown as Json;
    let depth = 0;
    while (block.type === 'blockquote') {
      block = (block.nodes as Json[])[0]!;
      depth += 1;
    }
    expect(depth).toBe(16);
    expect(withoutKeys(block)).toEqual(paragraph(plain('deep')));
  });

  it('refuses markdown nested deeper than the parser can read', () => {
    expect(() => markdownToDocument(`${'>'.repeat(10_000)} x`)).toThrow(BadRequestError);
    expect(() => markdownToDocument(`${'>'.repeat(10_000)} x`)).toThrow('markdown nests too deeply to be read');
  });

  it('keeps the text inside inline HTML and reads <br> as a line break', () => {
    expect(blocksOf('a <mark>marked</mark> word<br>next')).toEqual([paragraph(plain('a marked word\nnext'))]);
  });
});

/** A document around the given blocks, as an API caller might send it. */
const withBlocks = (...nodes: Json[]) => ({ object: 'document', data: {}, nodes });

describe('documentToMarkdown', () => {
  it('writes hints in GitBook’s form and references as /pages and /files URLs', () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'hint',
          data: { style: 'info' },
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              data: {},
              nodes: [
                { object: 'text', leaves: [{ object: 'leaf', text: 'See ', marks: [] }] },
                {
                  object: 'inline',
                  type: 'link',
                  data: { ref: { kind: 'anchor', page: 'p1', anchor: 'a' } },
                  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'this', marks: [] }] }],
                },
                { object: 'text', leaves: [{ object: 'leaf', text: ' and ', marks: [] }] },
                {
                  object: 'inline',
                  type: 'inline-image',
                  data: { ref: { kind: 'file', file: 'f1' }, alt: 'that' },
                  isVoid: true,
                },
              ],
            },
          ],
        },
      ],
    };
    expect(documentToMarkdown(document)).toBe(
      '{% hint style="info" %}\nSee [this](/pages/p1#a) and ![that](/files/f1)\n{% endhint %}\n',
    );
  });

  it('nests shared marks, and skips block types markdown cannot write', () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'tabs', data: {}, nodes: [] },
        {
          object: 'block',
          type: 'paragraph',
          nodes: [
            {
              object: 'text',
              leaves: [
                { object: 'leaf', text: 'bold ', marks: [{ object: 'mark', type: 'bold' }] },
                {
                  object: 'leaf',
                  text: 'both',
                  marks: [
                    { object: 'mark', type: 'bold' },
                    { object: 'mark', type: 'italic' },
                  ],
                },
                {
                  object: 'leaf',
                  text: ' red',
                  marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }],
                },
              ],
            },
          ],
        },
      ],
    } as unknown as JSONDocument;
    expect(documentToMarkdown(document)).toBe('**bold _both_**<mark style="color:red;"> red</mark>\n');
  });

  it.each([
    ['a string', 'not a document', 'document must be an object'],
    ['another object', { object: 'block', nodes: [] }, 'document.object must be "document"'],
    ['nodes that are not a list', { object: 'document', data: {}, nodes: {} }, 'document.nodes must be an array'],
    ['a node without a type', withBlocks({ object: 'block', nodes: [] }), 'document.nodes[0] has no "type"'],
    ['a text where a block belongs', withBlocks({ object: 'text', leaves: [] }), 'document.nodes[0] must be a block'],
    [
      'a text without leaves',
      withBlocks({ object: 'block', type: 'paragraph', nodes: [{ object: 'text' }] }),
      'document.nodes[0].nodes[0].leaves must be an array',
    ],
    [
      'a link without a reference',
      withBlocks({
        object: 'block',
        type: 'paragraph',
        nodes: [{ object: 'inline', type: 'link', data: {}, nodes: [] }],
      }),
      'document.nodes[0].nodes[0].data.ref must be an object',
    ],
    [
      'a hint of no known style',
      withBlocks({ object: 'block', type: 'hint', data: { style: 'tip' }, nodes: [] }),
      'document.nodes[0].data.style must be one of',
    ],
  ])('refuses %s with a BadRequestError naming the problem', (_, document, message) => {
    expect(() => documentToMarkdown(document as unknown as JSONDocument)).toThrow(BadRequestError);
    expect(() => documentToMarkdown(document as unknown as JSONDocument)).toThrow(message);
  });

  it('refuses nesting deeper than any real document instead of overflowing the stack', () => {
    let quote: Json = { object: 'block', type: 'paragraph', nodes: [] };
    for (let i = 0; i < 10_000; i += 1) quote = { object: 'block', type: 'blockquote', nodes: [quote] };
    const document = { object: 'document', data: {}, nodes: [quote] } as unknown as JSONDocument;
    expect(() => documentToMarkdown(document)).toThrow('levels deep');
  });
});

describe('splitFrontmatter', () => {
  it('parses the YAML block at the start and returns the markdown after it unchanged', () => {
    expect(splitFrontmatter('---\ntitle: Intro\ntags: [a, b]\n---\n# Intro\n\nBody  \n')).toEqual({
      data: { title: 'Intro', tags: ['a', 'b'] },
      body: '# Intro\n\nBody  \n',
    });
    expect(splitFrontmatter('---\r\ntitle: x\r\n---\r\nBody\r\n')).toEqual({ data: { title: 'x' }, body: 'Body\r\n' });
    expect(splitFrontmatter('---\n---\nBody')).toEqual({ data: {}, body: 'Body' });
  });

  it('gives no data and the whole markdown when there is no frontmatter', () => {
    for (const markdown of ['', '# Title\n\n---\na: 1\n---\n', '\n---\na: 1\n---\n']) {
      expect(splitFrontmatter(markdown)).toEqual({ data: {}, body: markdown });
    }
  });

  it('refuses invalid YAML and YAML that is not a mapping', () => {
    expect(() => splitFrontmatter('---\ntitle: [unclosed\n---\n')).toThrow(BadRequestError);
    expect(() => splitFrontmatter('---\ntitle: [unclosed\n---\n')).toThrow(
      /^document frontmatter is not valid YAML: .*line 1/,
    );
    expect(() => splitFrontmatter('---\na: 1\na: 2\n---\n')).toThrow(
      'document frontmatter is not valid YAML: Map keys must be unique',
    );
    expect(() => splitFrontmatter('---\n- a\n- b\n---\n')).toThrow('document frontmatter must be a YAML mapping');
    expect(() => splitFrontmatter('---\njust text\n---\n')).toThrow(BadRequestError);
  });
});

describe('leading heading', () => {
  const leadingHeadingTitle = (markdown: string) => splitLeadingHeading(markdown)?.title ?? null;
  const withoutLeadingHeading = (markdown: string) => splitLeadingHeading(markdown)?.body ?? markdown;

  it('is the title when the first block is a level-1 heading, frontmatter aside', () => {
    expect(leadingHeadingTitle('# Getting *started*\n\nBody')).toBe('Getting started');
    expect(leadingHeadingTitle('---\ntitle: x\n---\n\n# From Git\n')).toBe('From Git');
    expect(leadingHeadingTitle('Setext title\n===\n')).toBe('Setext title');
    expect(leadingHeadingTitle('## Not a title\n')).toBeNull();
    expect(leadingHeadingTitle('Intro\n\n# Later heading\n')).toBeNull();
    expect(leadingHeadingTitle('')).toBeNull();
    // Written in every way CommonMark allows, and not mistaken where it isn't one.
    expect(leadingHeadingTitle('\n\n   # Indented\n')).toBe('Indented');
    expect(leadingHeadingTitle('Two line\nsetext\n  ====  \r\nBody')).toBe('Two line setext');
    expect(leadingHeadingTitle('    # Indented code\n')).toBeNull();
    expect(leadingHeadingTitle('Para\n\n===\n')).toBeNull();
    expect(leadingHeadingTitle('Text with a # inside\n')).toBeNull();
    expect(leadingHeadingTitle('Para\n---\n')).toBeNull();
  });

  it('is cut out with the blank lines after it, every other byte kept', () => {
    expect(withoutLeadingHeading('# Title\n\n  Body *as* written\n\n# Another\n')).toBe(
      '  Body *as* written\n\n# Another\n',
    );
    expect(withoutLeadingHeading('---\na: 1\n---\n# Title\n\nBody')).toBe('---\na: 1\n---\nBody');
    expect(withoutLeadingHeading('# Only a title\n')).toBe('');
    expect(withoutLeadingHeading('Intro\n\n# Later\n')).toBe('Intro\n\n# Later\n');
  });
});

describe('rewriteUrls', () => {
  const markdown = [
    'See [intro](./intro.md "The intro") and [site](https://example.com), ![diagram](<./my diagram.png>).',
    '',
    '[![badge](./badge.svg)](./status.md) <https://auto.example.com> [ref][r] `[code](./not-a-link.md)`',
    '',
    '[r]: ./reference.md',
    '',
  ].join('\n');

  it('replaces the URLs of links, images and definitions where asked, keeping every other byte', () => {
    const seen: string[] = [];
    const rewritten = rewriteUrls(markdown, (url, kind) => {
      seen.push(`${kind} ${url}`);
      if (url.startsWith('./') && url.endsWith('.md')) return `/pages/${url.slice(2, -3)}`;
      if (url.startsWith('./')) return `/files/${url.slice(2).replaceAll(' ', '-')}`;
      return undefined;
    });
    expect(seen).toEqual([
      'link ./intro.md',
      'link https://example.com',
      'image ./my diagram.png',
      'image ./badge.svg',
      'link ./status.md',
      'definition ./reference.md',
    ]);
    expect(rewritten).toBe(
      [
        'See [intro](/pages/intro "The intro") and [site](https://example.com), ![diagram](/files/my-diagram.png).',
        '',
        '[![badge](/files/badge.svg)](/pages/status) <https://auto.example.com> [ref][r] `[code](./not-a-link.md)`',
        '',
        '[r]: /pages/reference',
        '',
      ].join('\n'),
    );
  });

  it('writes a replacement with spaces or parentheses so it reads back as given', () => {
    const rewritten = rewriteUrls('[a](x) and [b]: y\n\n[b]: z\n', () => 'a b(c)');
    expect(rewritten).toBe('[a](<a b\\(c\\)>) and [b]: y\n\n[b]: <a b\\(c\\)>\n');
    const urls: string[] = [];
    rewriteUrls(rewritten, (url) => void urls.push(url));
    expect(urls).toEqual(['a b(c)', 'a b(c)']);
  });

  it('returns the markdown unchanged when nothing is rewritten', () => {
    expect(rewriteUrls(markdown, () => undefined)).toBe(markdown);
  });
});

describe('evaluateExpressions', () => {
  const vars = { space: { product: 'Quire', version: 2 }, page: { beta: true } };

  it('replaces known space and page variables, with or without spaces in the braces', () => {
    const markdown = '{{ space.vars.product }} v{{space.vars.version}} beta: {{  page.vars.beta  }}';
    expect(evaluateExpressions(markdown, vars)).toBe('Quire v2 beta: true');
  });

  it('leaves unknown names and other expressions as written', () => {
    const markdown =
      '{{ space.vars.missing }} {{ page.vars.product }} {{ site.vars.product }} {{ space.vars.toString }}';
    expect(evaluateExpressions(markdown, vars)).toBe(markdown);
  });
});

describe('collectReferences', () => {
  it('lists each page and file the markdown links to or shows, once', () => {
    const markdown = [
      '[a](/pages/p1) [b](/pages/p2#x) [c](/pages/p1) ![d](/files/f1) [e](/files/f2) [f][r] [g](https://x.org/pages/p9)',
      '',
      '[r]: /pages/p3',
    ].join('\n');
    expect(collectReferences(markdown)).toEqual({ pages: ['p1', 'p2', 'p3'], files: ['f1', 'f2'] });
  });
});
