import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, type JSONDocument } from '../src/document/index.js';
import { MAX_HTML_BLOCKS } from '../src/document/html-blocks.js';
import { expectNewestSpecSchema, expectSpecSchema } from './support/spec.js';

type Json = Record<string, unknown>;

function withoutKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (name, v: unknown) => (name === 'key' ? undefined : v))) as T;
}

/** The document's blocks without keys, after checking the document against both specs. */
function blocksOf(markdown: string, { seedSpec = true, newestSpec = true } = {}): Json[] {
  const document = markdownToDocument(markdown);
  if (seedSpec) expectSpecSchema('JSONDocument', document);
  if (newestSpec) expectNewestSpecSchema('JSONDocument', document);
  return withoutKeys(document).nodes as unknown as Json[];
}

/** Markdown → document → markdown → document gives the same document, and the markdown is written again as is. */
function expectRoundTrip(markdown: string): string {
  const first = markdownToDocument(markdown);
  const written = documentToMarkdown(first);
  expect(withoutKeys(markdownToDocument(written))).toEqual(withoutKeys(first));
  expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
  return written;
}

const mark = (type: string) => ({ object: 'mark', type });
const leaf = (text: string, ...marks: string[]) => ({ object: 'leaf', text, marks: marks.map(mark) });
const text = (...leaves: Json[]) => ({ object: 'text', leaves });
const plain = (value: string) => text(leaf(value));
const empty = plain('');
const paragraph = (...nodes: Json[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const para = (value: string) => paragraph(plain(value));
const url = (value: string) => ({ kind: 'url', url: value });
const link = (ref: Json, label: string) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [plain(label)] });
const caption = (...paragraphs: Json[]) => [{ object: 'fragment', fragment: 'caption', nodes: paragraphs }];
const image = (data: Json, fragments: Json[] = []) => ({
  object: 'block',
  type: 'image',
  data,
  fragments,
  isVoid: true,
});
const images = (data: Json, ...nodes: Json[]) => ({ object: 'block', type: 'images', data, nodes, isVoid: false });
const codeLine = (value: string, data: Json = {}) => ({
  object: 'block',
  type: 'code-line',
  data,
  nodes: [plain(value)],
});
const cell = (fragment: string, ...nodes: Json[]) => ({ object: 'fragment', fragment, nodes });
const item = (...nodes: Json[]) => ({ object: 'block', type: 'list-item', data: {}, nodes });

describe('figures', () => {
  const FIGURE =
    '<figure><img src="../.gitbook/assets/editor (1).png" alt="The editor" width="375"><figcaption><p>The <strong>new</strong> <a href="https://example.com/editor">editor</a></p></figcaption></figure>\n';

  it('are an image block: the image’s file or URL, alt text, width, and its caption with marks and links', () => {
    expect(blocksOf(FIGURE)).toEqual([
      images(
        {},
        image(
          { ref: url('../.gitbook/assets/editor (1).png'), alt: 'The editor', width: 375 },
          caption(
            paragraph(
              text(leaf('The '), leaf('new', 'bold'), leaf(' ')),
              link(url('https://example.com/editor'), 'editor'),
              empty,
            ),
          ),
        ),
      ),
    ]);
  });

  it('are written back as GitBook writes them', () => {
    expect(expectRoundTrip(FIGURE)).toBe(FIGURE);
  });

  it('framed, aligned or side by side are one image block with the block’s settings', () => {
    const framed =
      '<div data-with-frame="true"><figure><img src="/files/shot" alt=""><figcaption><p>Framed</p></figcaption></figure></div>\n';
    const aligned =
      '<div align="center"><figure><img src="https://example.com/a.png" alt="A"><figcaption></figcaption></figure></div>\n';
    const pair =
      '<div><figure><img src="/files/one" alt="One"><figcaption></figcaption></figure><figure><img src="/files/two" alt="Two"><figcaption><p>Second</p></figcaption></figure></div>\n';
    expect(blocksOf(framed)).toEqual([
      images({ withFrame: true }, image({ ref: { kind: 'file', file: 'shot' } }, caption(para('Framed')))),
    ]);
    expect(blocksOf(aligned)).toEqual([
      images({ align: 'center' }, image({ ref: url('https://example.com/a.png'), alt: 'A' })),
    ]);
    expect(blocksOf(pair)).toEqual([
      images(
        {},
        image({ ref: { kind: 'file', file: 'one' }, alt: 'One' }),
        image({ ref: { kind: 'file', file: 'two' }, alt: 'Two' }, caption(para('Second'))),
      ),
    ]);
    expect(expectRoundTrip(framed)).toBe(framed);
    expect(expectRoundTrip(aligned)).toBe(aligned);
    expect(expectRoundTrip(pair)).toBe(pair);
  });

  it('with a picture keep its dark variant; a bare or drawing image is an image too', () => {
    const picture =
      '<figure><picture><source srcset="/files/dark" media="(prefers-color-scheme: dark)"><img src="/files/light" alt="Logo"></picture><figcaption><p>Logo</p></figcaption></figure>\n';
    expect(blocksOf(picture)).toEqual([
      images(
        {},
        image(
          { ref: { kind: 'file', file: 'light' }, refDark: { kind: 'file', file: 'dark' }, alt: 'Logo' },
          caption(para('Logo')),
        ),
      ),
    ]);
    expect(expectRoundTrip(picture)).toBe(picture);
    // A drawing needs its uploaded drawing file: one written as an image is read as the image it shows.
    expect(blocksOf('<img src="/files/sketch" alt="Flow" class="gitbook-drawing">\n')).toEqual([
      images({}, image({ ref: { kind: 'file', file: 'sketch' }, alt: 'Flow' })),
    ]);
    expect(documentToMarkdown(markdownToDocument('<img src="/files/sketch" alt="Flow">\n'))).toBe(
      '![Flow](/files/sketch)\n',
    );
  });

  it('that are not GitBook’s, or only half understood, keep their source as HTML code', () => {
    for (const html of [
      '<figure><figcaption><p>No image</p></figcaption></figure>',
      '<figure><img src="a.png" alt="">Loose text</figure>',
      '<div><p>raw HTML</p></div>',
      '<figure><img alt="no source"></figure>',
      '<figure><img src="a.png"',
      '<div data-with-frame="true"><figure><img src="a.png"></figure><p>and text</p></div>',
    ]) {
      const [block] = blocksOf(`${html}\n`);
      expect(block).toEqual({
        object: 'block',
        type: 'code',
        data: { syntax: 'html' },
        nodes: [codeLine(html)],
      });
    }
  });

  it('ignore attributes they do not know, and read a width in a unit', () => {
    expect(blocksOf('<figure><img src="/files/a" alt="" width="50%" loading="lazy" data-x="1"></figure>\n')).toEqual([
      images({}, image({ ref: { kind: 'file', file: 'a' }, width: { unit: '%', value: 50 } })),
    ]);
  });
});

describe('inline HTML', () => {
  it('reads buttons to content and buttons that act, and writes them back', () => {
    const markdown =
      'Start here: <a href="/pages/quick" class="button primary" data-icon="rocket">Quickstart</a> <button type="button" class="button secondary" data-action="ask" data-query="How do I publish?">Ask</button>\n';
    // The newest spec's button closes each of its two shapes (`ref`, `action`) to other properties, so no
    // button with a label passes it; the seed spec's has no acting button. Checked against the seed below.
    expect(blocksOf(markdown, { seedSpec: false, newestSpec: false })).toEqual([
      paragraph(
        plain('Start here: '),
        {
          object: 'inline',
          type: 'button',
          data: { label: 'Quickstart', kind: 'primary', icon: 'rocket', ref: { kind: 'page', page: 'quick' } },
          isVoid: true,
        },
        plain(' '),
        {
          object: 'inline',
          type: 'button',
          data: { label: 'Ask', kind: 'secondary', action: { action: 'ask', query: 'How do I publish?' } },
          isVoid: true,
        },
        empty,
      ),
    ]);
    expect(expectRoundTrip(markdown)).toBe(markdown);
    blocksOf('<a href="/pages/quick" class="button primary" data-icon="rocket">Quickstart</a>\n', {
      newestSpec: false,
    });
  });

  it('reads an inline picture’s dark variant and a line-sized image', () => {
    const markdown =
      'Open the <picture><source srcset="/files/menu-dark" media="(prefers-color-scheme: dark)"><img src="/files/menu" alt="menu"></picture> menu, or <img src="/files/k" alt="key" data-size="line">.\n';
    expect(blocksOf(markdown)).toEqual([
      paragraph(
        plain('Open the '),
        {
          object: 'inline',
          type: 'inline-image',
          data: { ref: { kind: 'file', file: 'menu' }, refDark: { kind: 'file', file: 'menu-dark' }, alt: 'menu' },
          isVoid: true,
        },
        plain(' menu, or '),
        {
          object: 'inline',
          type: 'inline-image',
          data: { ref: { kind: 'file', file: 'k' }, alt: 'key', size: 'line' },
          isVoid: true,
        },
        plain('.'),
      ),
    ]);
    expect(expectRoundTrip(markdown)).toBe(markdown);
  });

  it('reads GitBook’s icons, in text and in a card’s heading', () => {
    const icon = (name: string) => ({ object: 'inline', type: 'icon', data: { icon: name }, isVoid: true });
    const markdown = 'Find us on <i class="fa-github">:github:</i> today.\n';
    expect(blocksOf(markdown)).toEqual([paragraph(plain('Find us on '), icon('github'), plain(' today.'))]);
    expect(expectRoundTrip(markdown)).toBe(markdown);
    const [card] = blocksOf(
      '<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td><h4><i class="fa-globe">:globe:</i></h4></td></tr></tbody></table>\n',
    );
    expect((card!.fragments as Json[])[0]).toEqual(
      cell('r1c1', { object: 'block', type: 'heading-3', data: {}, nodes: [empty, icon('globe'), empty] }),
    );
  });

  it('keeps the text of a button that never closes, and of tags it does not know', () => {
    expect(blocksOf('A <a class="button primary" href="/pages/x">dangling and <kbd>K</kbd>\n')).toEqual([
      para('A dangling and K'),
    ]);
  });
});

describe('aligned text', () => {
  it('reads <p align> and <h1>–<h6 align> into the spec’s alignment; <h4>–<h6> are the deepest heading', () => {
    const markdown =
      '<h3 align="center">Keep going</h3>\n\n<p align="center">Three <em>ways</em> in.</p>\n\n<h4>Details</h4>\n';
    expect(blocksOf(markdown)).toEqual([
      { object: 'block', type: 'heading-3', data: { align: 'center' }, nodes: [plain('Keep going')] },
      {
        object: 'block',
        type: 'paragraph',
        data: { align: 'center' },
        nodes: [text(leaf('Three '), leaf('ways', 'italic'), leaf(' in.'))],
      },
      { object: 'block', type: 'heading-3', data: {}, nodes: [plain('Details')] },
    ]);
    expect(expectRoundTrip(markdown)).toBe(
      '<h3 align="center">Keep going</h3>\n\n<p align="center">Three <em>ways</em> in.</p>\n\n### Details\n',
    );
  });

  it('reads a centred paragraph of buttons', () => {
    const [block] = blocksOf('<p align="center"><a href="https://example.com" class="button primary">Go</a></p>\n', {
      newestSpec: false,
    });
    expect(block).toEqual({
      object: 'block',
      type: 'paragraph',
      data: { align: 'center' },
      nodes: [
        empty,
        {
          object: 'inline',
          type: 'button',
          data: { label: 'Go', kind: 'primary', ref: url('https://example.com') },
          isVoid: true,
        },
        empty,
      ],
    });
  });
});

describe('a hint as GitBook writes it in a list item', () => {
  it('is a hint block of the custom block’s style, written back as the tag', () => {
    const markdown =
      '* Hand off\n\n  <div data-gb-custom-block data-tag="hint" data-style="success" class="hint hint-success"><p><strong>Support</strong> first.</p></div>\n* Next\n';
    expect(blocksOf(markdown)).toEqual([
      {
        object: 'block',
        type: 'list-unordered',
        data: {},
        nodes: [
          item(para('Hand off'), {
            object: 'block',
            type: 'hint',
            data: { style: 'success' },
            nodes: [paragraph(text(leaf('Support', 'bold'), leaf(' first.')))],
          }),
          item(para('Next')),
        ],
      },
    ]);
    expect(expectRoundTrip(markdown)).toBe(
      '* Hand off\n\n  {% hint style="success" %}\n  **Support** first.\n  {% endhint %}\n* Next\n',
    );
  });

  it('of a style GitBook has not is shown as its source', () => {
    const markdown = '<div data-gb-custom-block data-tag="hint" data-style="loud"><p>Hey</p></div>\n';
    expect(blocksOf(markdown)).toMatchObject([{ type: 'code', data: { syntax: 'html' } }]);
  });
});

describe('code with highlighted lines', () => {
  const PRE =
    '<pre class="language-yaml" data-title="openapi.yaml" data-overflow="wrap" data-line-numbers><code class="lang-yaml">paths:\n<strong>  /pets:\n</strong>    get: {}\n</code></pre>\n';

  it('is a code block of the pre’s options, its <strong> lines highlighted', () => {
    expect(blocksOf(PRE)).toEqual([
      {
        object: 'block',
        type: 'code',
        data: { syntax: 'yaml', title: 'openapi.yaml', overflow: 'wrap', lineNumbers: true },
        nodes: [codeLine('paths:'), codeLine('  /pets:', { highlighted: true }), codeLine('    get: {}')],
      },
    ]);
  });

  it('is written back as GitBook’s <pre>, and code that markdown escapes stays text', () => {
    expect(expectRoundTrip(PRE)).toBe(PRE);
    const tricky = '<pre><code><strong>&#x3C;/pre> **not bold**\n</strong>\n\nafter a blank line\n</code></pre>\n';
    const [block] = blocksOf(tricky);
    expect(block).toMatchObject({
      nodes: [
        codeLine('</pre> **not bold**', { highlighted: true }),
        codeLine(''),
        codeLine(''),
        codeLine('after a blank line'),
      ],
    });
    expectRoundTrip(tricky);
  });
});

const CARDS =
  '<table data-card-size="large" data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><h4>Sites</h4></td><td>Publish <strong>docs</strong>.</td><td><a href="/pages/sites">sites</a></td><td><a href="/files/cover1">cover.png</a></td></tr><tr><td><h4>Pages</h4></td><td><p>Write pages:</p><ul><li>one</li><li>two</li></ul></td><td><a href="#pages">pages</a></td><td></td></tr></tbody></table>\n';

describe('cards', () => {
  it('are a table with the cards view: target and cover columns typed, cells rich', () => {
    const heading = (value: string) => ({ object: 'block', type: 'heading-3', data: {}, nodes: [plain(value)] });
    expect(blocksOf(CARDS)).toEqual([
      {
        object: 'block',
        type: 'table',
        data: {
          view: {
            type: 'cards',
            columns: ['c1', 'c2'],
            cardSize: 'large',
            targetDefinition: 'c3',
            coverDefinition: 'c4',
          },
          records: {
            r1: {
              orderIndex: 'a0',
              values: { c1: 'r1c1', c2: 'r1c2', c3: { kind: 'page', page: 'sites' }, c4: ['cover1'] },
            },
            r2: { orderIndex: 'a1', values: { c1: 'r2c1', c2: 'r2c2', c3: { kind: 'anchor', anchor: 'pages' } } },
          },
          definition: {
            c1: { id: 'c1', title: '', type: 'text', textAlignment: 'left' },
            c2: { id: 'c2', title: '', type: 'text', textAlignment: 'left' },
            c3: { id: 'c3', title: '', type: 'content-ref' },
            c4: { id: 'c4', title: '', type: 'files' },
          },
        },
        fragments: [
          cell('r1c1', heading('Sites')),
          cell('r1c2', paragraph(text(leaf('Publish '), leaf('docs', 'bold'), leaf('.')))),
          cell('r2c1', heading('Pages')),
          cell('r2c2', para('Write pages:'), {
            object: 'block',
            type: 'list-unordered',
            data: {},
            nodes: [item(para('one')), item(para('two'))],
          }),
        ],
        isVoid: true,
      },
    ]);
  });

  it('are written back as GitBook’s HTML table, and read back the same', () => {
    const written = expectRoundTrip(CARDS);
    expect(written).toBe(
      '<table data-card-size="large" data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><h3>Sites</h3></td><td>Publish <strong>docs</strong>.</td><td><a href="/pages/sites">/pages/sites</a></td><td><a href="/files/cover1">/files/cover1</a></td></tr><tr><td><h3>Pages</h3></td><td><p>Write pages:</p><ul><li>one</li><li>two</li></ul></td><td><a href="#pages">#pages</a></td><td></td></tr></tbody></table>\n',
    );
  });

  it('with missing cells, image covers and no wrap keep what they have', () => {
    const markdown =
      '<table data-card-wrap="false" data-view="cards"><thead><tr><th>Title</th><th data-hidden data-card-cover data-type="image">Cover</th></tr></thead><tbody><tr><td>Only a title</td></tr><tr></tr></tbody></table>\n';
    const [table] = blocksOf(markdown);
    expect(table).toMatchObject({
      data: {
        view: { type: 'cards', columns: ['c1'], cardSize: 'medium', coverDefinition: 'c2', wrap: false },
        records: { r1: { values: { c1: 'r1c1' } }, r2: { values: { c1: 'r2c1' } } },
        definition: { c2: { id: 'c2', title: 'Cover', type: 'image' } },
      },
      fragments: [cell('r1c1', para('Only a title')), cell('r2c1', paragraph(empty))],
    });
    expectRoundTrip(markdown);
  });
});

describe('HTML tables', () => {
  it('that markdown can say are a grid, written back as a GitHub table', () => {
    const markdown =
      '<table><thead><tr><th>Name</th><th align="right">Size</th></tr></thead><tbody><tr><td><code>a</code></td><td>1</td></tr></tbody></table>\n';
    const [table] = blocksOf(markdown);
    expect(table).toMatchObject({
      data: {
        view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
        definition: { c2: { id: 'c2', title: 'Size', type: 'text', textAlignment: 'right' } },
      },
      fragments: [cell('r1c1', paragraph(text(leaf('a', 'code')))), cell('r1c2', para('1'))],
    });
    expect(expectRoundTrip(markdown)).toBe('| Name | Size |\n| ---- | ---: |\n| `a`  |    1 |\n');
  });

  it('with a hidden header, widths, full width or rich cells stay HTML', () => {
    const markdown =
      '<table data-full-width="true" data-header-hidden><thead><tr><th width="200">Step</th><th>What</th></tr></thead><tbody><tr><td>1</td><td><p>Open it.</p><p>Then <a href="/pages/next">go on</a>.</p></td></tr></tbody></table>\n';
    const [table] = blocksOf(markdown);
    expect(table).toMatchObject({
      data: {
        view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: true, columnWidths: { c1: 200 } },
        fullWidth: true,
      },
      fragments: [
        cell('r1c1', para('1')),
        cell(
          'r1c2',
          para('Open it.'),
          paragraph(plain('Then '), link({ kind: 'page', page: 'next' }, 'go on'), plain('.')),
        ),
      ],
    });
    expect(expectRoundTrip(markdown)).toBe(markdown);
  });
});

describe('bounds', () => {
  it('read 5,000 figures in one HTML block as one image block', () => {
    const figures = Array.from(
      { length: 5_000 },
      (_, i) => `<figure><img src="/files/f${i}" alt=""><figcaption><p>Figure ${i}</p></figcaption></figure>`,
    );
    const [block] = withoutKeys(markdownToDocument(`<div>${figures.join('')}</div>\n`)).nodes as unknown as Json[];
    expect((block!.nodes as Json[]).length).toBe(5_000);
    expect((block!.nodes as Json[])[4_999]).toEqual(
      image({ ref: { kind: 'file', file: 'f4999' } }, caption(para('Figure 4999'))),
    );
  }, 120_000);

  it('parse a bounded number of HTML blocks per page; past it, blocks keep their source', () => {
    const markdown = '<figure><img src="/files/a" alt=""></figure>\n\n'.repeat(MAX_HTML_BLOCKS + 5);
    const blocks = withoutKeys(markdownToDocument(markdown)).nodes as unknown as Json[];
    expect(blocks).toHaveLength(MAX_HTML_BLOCKS + 5);
    expect(blocks[MAX_HTML_BLOCKS - 1]).toMatchObject({ type: 'images' });
    expect(blocks[MAX_HTML_BLOCKS]).toMatchObject({ type: 'code', data: { syntax: 'html' } });
  });

  it('keep HTML nested thousands deep as its source', () => {
    const deep = `${'<div>'.repeat(20_000)}<figure><img src="a.png"></figure>${'</div>'.repeat(20_000)}`;
    const [block] = withoutKeys(markdownToDocument(`${deep}\n`)).nodes as unknown as Json[];
    expect(block).toMatchObject({ type: 'code', data: { syntax: 'html' } });
  });
});

describe('written documents', () => {
  it('with a caption, a size, or settings on the block are GitBook’s HTML; plain images stay markdown', () => {
    const sent = {
      object: 'document',
      data: {},
      nodes: [
        images(
          {},
          image({ ref: { kind: 'file', file: 'a' }, alt: 'A' }),
          image({ ref: url('https://example.com/b.png') }),
        ),
        images({ align: 'left' }, image({ ref: { kind: 'file', file: 'c' }, height: 120 })),
      ],
    } as unknown as JSONDocument;
    expectSpecSchema('JSONDocument', sent);
    expect(documentToMarkdown(sent)).toBe(
      '![A](/files/a) ![](https://example.com/b.png)\n\n<div align="left"><figure><img src="/files/c" alt="" height="120"><figcaption></figcaption></figure></div>\n',
    );
  });
});

describe('round trips', () => {
  /** Text with the characters markdown and HTML treat as syntax, escaped as an author's HTML would have them. */
  const words = fc.stringMatching(/^[\w *_&<>"'[\]|`~#\\-]{0,16}$/);
  const escape = (value: string) => value.replaceAll('&', '&#x26;').replaceAll('<', '&#x3C;').replaceAll('"', '&#x22;');
  const fileId = fc.stringMatching(/^[a-z0-9]{1,8}$/);
  const figure = fc
    .record({ id: fileId, alt: words, caption: words, width: fc.option(fc.integer({ min: 1, max: 2000 })) })
    .map(
      ({ id, alt, caption, width }) =>
        `<figure><img src="/files/${id}" alt="${escape(alt)}"${width === null ? '' : ` width="${width}"`}><figcaption><p>${escape(caption)}</p></figcaption></figure>`,
    );
  const figures = fc
    .record({
      figures: fc.array(figure, { minLength: 1, maxLength: 3 }),
      frame: fc.boolean(),
      align: fc.constantFrom('', 'left', 'center', 'right'),
    })
    .map(({ figures: list, frame, align }) => {
      const attributes = `${align ? ` align="${align}"` : ''}${frame ? ' data-with-frame="true"' : ''}`;
      return list.length === 1 && attributes === '' ? list[0]! : `<div${attributes}>${list.join('')}</div>`;
    });
  const cards = fc
    .record({
      size: fc.constantFrom('', ' data-card-size="large"'),
      rows: fc.array(fc.record({ title: words, body: words, page: fc.option(fileId) }), { minLength: 1, maxLength: 4 }),
    })
    .map(
      ({ size, rows }) =>
        `<table${size} data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody>${rows
          .map(
            (row) =>
              `<tr><td><strong>${escape(row.title)}</strong></td><td>${escape(row.body)}</td><td>${row.page === null ? '' : `<a href="/pages/${row.page}">x</a>`}</td></tr>`,
          )
          .join('')}</tbody></table>`,
    );
  const table = fc
    .record({
      hidden: fc.boolean(),
      header: fc.array(words, { minLength: 1, maxLength: 3 }),
      rows: fc.array(fc.array(fc.array(words, { minLength: 1, maxLength: 2 }), { maxLength: 3 }), { maxLength: 3 }),
    })
    .map(
      ({ hidden, header, rows }) =>
        `<table${hidden ? ' data-header-hidden' : ''}><thead><tr>${header.map((title) => `<th>${escape(title)}</th>`).join('')}</tr></thead><tbody>${rows
          .map(
            (cells) =>
              `<tr>${cells.map((ps) => `<td>${ps.map((p) => `<p>${escape(p)}</p>`).join('')}</td>`).join('')}</tr>`,
          )
          .join('')}</tbody></table>`,
    );

  it('of generated figures, cards and tables are stable: markdown → document → markdown → document', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(figures, cards, table), { minLength: 1, maxLength: 4 }), (blocks) => {
        const markdown = `${blocks.join('\n\n')}\n`;
        const document = markdownToDocument(markdown);
        expectNewestSpecSchema('JSONDocument', document);
        expectRoundTrip(markdown);
      }),
      { numRuns: 60 },
    );
  });
});
