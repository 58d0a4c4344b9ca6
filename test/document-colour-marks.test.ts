import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../src/core/errors.js';
import { documentToMarkdown, markdownToDocument, type JSONDocument } from '../src/document/index.js';
import { renderDocument } from '../src/html/document-html.js';
import { READER_CSS } from '../src/reader/styles.js';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import { rowsInSpace } from './support/rows.js';
import { expectNewestSpecSchema, expectSpecSchema } from './support/spec.js';

type Json = Record<string, unknown>;

function withoutKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (name, v: unknown) => (name === 'key' ? undefined : v))) as T;
}

/** The document's blocks without keys, after checking the whole document against both specs. */
function blocksOf(markdown: string): Json[] {
  const document = markdownToDocument(markdown);
  expectSpecSchema('JSONDocument', document);
  expectNewestSpecSchema('JSONDocument', document);
  return withoutKeys(document).nodes as unknown as Json[];
}

/** Markdown → document → markdown → document gives the same document; returns the markdown written. */
function expectRoundTrip(markdown: string): string {
  const first = markdownToDocument(markdown);
  const written = documentToMarkdown(first);
  const second = markdownToDocument(written);
  expect(withoutKeys(second)).toEqual(withoutKeys(first));
  expect(documentToMarkdown(second)).toBe(written);
  return written;
}

const colour = (text: string, background = 'default') => ({
  object: 'mark',
  type: 'color',
  data: { text, background },
});
const mark = (type: string | Json) => (typeof type === 'string' ? { object: 'mark', type } : type);
const leaf = (text: string, ...marks: Array<string | Json>) => ({ object: 'leaf', text, marks: marks.map(mark) });
const text = (...leaves: Json[]) => ({ object: 'text', leaves });
const plain = (value: string) => text(leaf(value));
const paragraph = (...nodes: Json[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const link = (url: string, ...nodes: Json[]) => ({
  object: 'inline',
  type: 'link',
  data: { ref: { kind: 'url', url } },
  nodes,
});
const document = (...nodes: Json[]) => ({ object: 'document', data: {}, nodes }) as unknown as JSONDocument;

/** Every leaf of a document in order, as its text and the colours of its colour mark (null without one). */
function colouredLeaves(value: unknown): Array<[string, string | null]> {
  const found: Array<[string, string | null]> = [];
  JSON.stringify(value, (_, v: unknown) => {
    const node = v as { object?: string; text?: string; marks?: Array<{ type: string; data?: Json }> };
    if (node?.object === 'leaf' && node.text) {
      const data = node.marks?.find((m) => m.type === 'color')?.data;
      found.push([node.text, data ? `${String(data.text)}/${String(data.background)}` : null]);
    }
    return v;
  });
  return found;
}

describe('coloured text read from GitBook’s markdown', () => {
  it.each([
    ['a text colour', '<mark style="color:orange;">This text is orange.</mark>', colour('orange')],
    ['a background', '<mark style="background-color:orange;">This text is orange.</mark>', colour('default', 'orange')],
    [
      'both, text first',
      '<mark style="color:orange;background-color:purple;">This text is orange.</mark>',
      colour('orange', 'purple'),
    ],
    [
      'both, background first, without the last semicolon',
      '<mark style="background-color:purple;color:orange">This text is orange.</mark>',
      colour('orange', 'purple'),
    ],
    ['a colour of the site', '<mark style="color:$primary;">This text is orange.</mark>', colour('$primary')],
    [
      'any spacing and case, in single quotes',
      "<mark style=' Color : Blue ; BACKGROUND-COLOR:$Warning ; '>This text is orange.</mark>",
      colour('blue', '$warning'),
    ],
    [
      'a default part named',
      '<mark style="color:default;background-color:green;">This text is orange.</mark>',
      colour('default', 'green'),
    ],
  ])('reads %s as a colour mark', (_, markdown, expected) => {
    expect(blocksOf(`${markdown}\n`)).toEqual([paragraph(text(leaf('This text is orange.', expected)))]);
  });

  it.each([
    ['a colour GitBook has not, in hex', '<mark style="color:#ff0000;">'],
    ['a colour GitBook has not, by name', '<mark style="color:pink;">'],
    ['a background GitBook has not', '<mark style="color:red;background-color:#000;">'],
    ['a style of more than colours', '<mark style="color:red;font-weight:bold;">'],
    ['a declaration without a value', '<mark style="color red">'],
    ['no style', '<mark>'],
    ['an empty style', '<mark style="">'],
    ['default colours only', '<mark style="color:default;background-color:default;">'],
  ])('keeps the text of %s without a mark, and shows no HTML', (_, open) => {
    const markdown = `Look ${open}here</mark> now.\n`;
    expect(blocksOf(markdown)).toEqual([paragraph(plain('Look here now.'))]);
    const { html } = renderDocument({ document: markdownToDocument(markdown), pages: {}, files: {} });
    expect(html).toBe('<p>Look here now.</p>');
  });

  it('nests with bold, italics and links inside, and inside bold and links', () => {
    expect(
      blocksOf(
        '<mark style="color:red;">**bold** and [a link](https://example.com/a) and _it_</mark> after\n\n' +
          '**<mark style="background-color:yellow;">bold on yellow</mark> bold** and [<mark style="color:$info;">see</mark> this](https://example.com/b)\n',
      ),
    ).toEqual([
      paragraph(
        text(leaf('bold', 'bold', colour('red')), leaf(' and ', colour('red'))),
        link('https://example.com/a', text(leaf('a link', colour('red')))),
        text(leaf(' and ', colour('red')), leaf('it', 'italic', colour('red')), leaf(' after')),
      ),
      paragraph(
        text(leaf('bold on yellow', 'bold', colour('default', 'yellow')), leaf(' bold', 'bold'), leaf(' and ')),
        link('https://example.com/b', text(leaf('see', colour('$info')), leaf(' this'))),
        plain(''),
      ),
    ]);
  });

  it('colours with a tag inside another what each sets, as a browser shows it, and ends an unclosed tag with its paragraph', () => {
    expect(
      blocksOf(
        '<mark style="color:red;">a <mark style="background-color:blue;">b</mark> <mark style="color:green;">c</mark> d</mark> e\n\n' +
          '<mark style="color:purple;">runs on\n\nnot here\n',
      ),
    ).toEqual([
      paragraph(
        text(
          leaf('a ', colour('red')),
          leaf('b', colour('red', 'blue')),
          leaf(' ', colour('red')),
          leaf('c', colour('green')),
          leaf(' d', colour('red')),
          leaf(' e'),
        ),
      ),
      paragraph(text(leaf('runs on', colour('purple')))),
      paragraph(plain('not here')),
    ]);
  });

  it('reads coloured text in a table cell, a list item, a hint, a heading, a quote and a cards table', () => {
    const markdown = [
      '## <mark style="color:$primary;">Usage</mark>',
      '',
      '| Service | State |',
      '| --- | --- |',
      '| api | <mark style="color:green;">up</mark> |',
      '',
      '* <mark style="color:blue;">first</mark> item',
      '  * <mark style="background-color:$danger;">nested</mark>',
      '',
      '{% hint style="info" %}',
      '<mark style="color:$primary;">**LOGO & Project Description**</mark>',
      '',
      'Body.',
      '{% endhint %}',
      '',
      '> <mark style="color:orange;">quoted</mark>',
      '',
      '<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td><mark style="color:red;">Hot</mark> <strong>news</strong></td></tr></tbody></table>',
      '',
    ].join('\n');
    const blocks = blocksOf(markdown);
    expect(blocks.map((block) => block.type)).toEqual([
      'heading-2',
      'table',
      'list-unordered',
      'hint',
      'blockquote',
      'table',
    ]);
    expect(colouredLeaves(blocks)).toEqual([
      ['Usage', '$primary/default'],
      ['api', null],
      ['up', 'green/default'],
      ['first', 'blue/default'],
      [' item', null],
      ['nested', 'default/$danger'],
      ['LOGO & Project Description', '$primary/default'],
      ['Body.', null],
      ['quoted', 'orange/default'],
      ['Hot', 'red/default'],
      [' ', null],
      ['news', null],
    ]);
    const written = expectRoundTrip(markdown);
    expect(written).toContain('## <mark style="color:$primary;">Usage</mark>\n');
    expect(written).toContain('| api     | <mark style="color:green;">up</mark> |');
    expect(written).toContain('<td><mark style="color:red;">Hot</mark> <strong>news</strong></td>');
  });
});

describe('coloured text written back', () => {
  it('is written as GitBook writes it: the parts that are not default, text colour first, outside bold and inside links', () => {
    const markdown = [
      '<mark style="color:orange;">This text is orange.</mark>',
      '',
      '<mark style="background-color:orange;">This text is orange.</mark>',
      '',
      '<mark style="color:orange;background-color:purple;">This text is orange.</mark>',
      '',
      'A <mark style="color:$primary;">**bold** word</mark> and [<mark style="color:purple;">Link</mark>](https://example.com/a).',
      '',
    ].join('\n');
    expect(expectRoundTrip(markdown)).toBe(markdown);
    expect(
      expectRoundTrip(
        '<mark style=\' Color : Blue ; BACKGROUND-COLOR:$Warning ; \'>x</mark> **<mark style="color:red">y</mark>**\n',
      ),
    ).toBe('<mark style="color:blue;background-color:$warning;">x</mark> <mark style="color:red;">**y**</mark>\n');
  });

  it('writes a caller’s colour marks, one mark around neighbours of one colour, none for default colours', () => {
    const sent = document(
      paragraph(
        text(
          leaf('red ', colour('red')),
          leaf('bold red', 'bold', colour('red')),
          leaf(' blue', colour('default', 'blue')),
          leaf(' plain', colour('default')),
          leaf(' pink', colour('pink', 'cyan')),
        ),
      ),
    );
    expectNewestSpecSchema('JSONDocument', sent);
    expect(documentToMarkdown(sent)).toBe(
      '<mark style="color:red;">red **bold red**</mark><mark style="background-color:blue;"> blue</mark> plain' +
        '<mark style="color:pink;background-color:cyan;"> pink</mark>\n',
    );
    // Colours only the newest spec has are kept in the markdown; the document read from it cannot hold them.
    expect(colouredLeaves(markdownToDocument(documentToMarkdown(sent)))).toEqual([
      ['red ', 'red/default'],
      ['bold red', 'red/default'],
      [' blue', 'default/blue'],
      [' plain pink', null],
    ]);
  });

  it('drops line breaks that end a paragraph inside a coloured run, and the run when nothing else is left', () => {
    const sent = document(
      paragraph(text(leaf('kept', colour('red')), leaf('\n', colour('red')))),
      paragraph(text(leaf('only', colour('red')), leaf('\n', colour('blue')))),
    );
    expect(documentToMarkdown(sent)).toBe(
      '<mark style="color:red;">kept</mark>\n\n<mark style="color:red;">only</mark>\n',
    );
  });

  it.each([
    [
      'data that is not an object',
      { object: 'mark', type: 'color', data: 'red' },
      'document.nodes[0].nodes[0].leaves[0].marks[0].data must be an object',
    ],
    [
      'no data',
      { object: 'mark', type: 'color' },
      'document.nodes[0].nodes[0].leaves[0].marks[0].data must be an object',
    ],
    [
      'no background',
      { object: 'mark', type: 'color', data: { text: 'red' } },
      'document.nodes[0].nodes[0].leaves[0].marks[0].data.background must be one of: default, green, blue, red',
    ],
    [
      'a colour of neither spec',
      { object: 'mark', type: 'color', data: { text: '#ff0000', background: 'default' } },
      'document.nodes[0].nodes[0].leaves[0].marks[0].data.text must be one of: default, green, blue, red',
    ],
    [
      'a colour that is not a string',
      { object: 'mark', type: 'color', data: { text: 'red', background: 3 } },
      'document.nodes[0].nodes[0].leaves[0].marks[0].data.background must be one of:',
    ],
  ])('refuses a colour mark with %s, naming the field', (_, badMark, message) => {
    const sent = document(paragraph(text({ object: 'leaf', text: 'x', marks: [badMark] })));
    expect(() => documentToMarkdown(sent)).toThrow(BadRequestError);
    expect(() => documentToMarkdown(sent)).toThrow(message);
  });
});

describe('coloured text, generated', () => {
  const word = fc.constantFrom('alpha', 'Beta', 'x1', 'it’s', 'a*b', '_lead', 'x<b>y', '&amp;', '[d]', '50%');
  const words = fc.array(word, { minLength: 1, maxLength: 3 }).map((list) => list.join(' '));
  const colourName = fc.constantFrom('default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', '$primary');
  const colours = fc
    .record({ text: colourName, background: colourName })
    .filter(({ text, background }) => text !== 'default' || background !== 'default');
  const style = ({ text, background }: { text: string; background: string }) =>
    `${text === 'default' ? '' : `color:${text};`}${background === 'default' ? '' : `background-color:${background};`}`;
  /** A run of words, maybe bold, maybe coloured, maybe linked: GitBook's order is link, colour, bold. */
  const segment = fc
    .record({ words, bold: fc.boolean(), colours: fc.option(colours, { nil: undefined }), linked: fc.boolean() })
    .map(({ words, bold, colours, linked }) => {
      let inner = bold ? `**${words}**` : words;
      if (colours) inner = `<mark style="${style(colours)}">${inner}</mark>`;
      return linked ? `[${inner}](https://example.com/x)` : inner;
    });
  const line = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join(' '));
  const block = fc.oneof(
    line,
    line.map((content) => `### ${content}`),
    line.map((content) => `* ${content}`),
    line.map((content) => `> ${content}`),
    line.map((content) => `| A |\n| - |\n| ${content} |`),
    line.map((content) => `{% hint style="info" %}\n${content}\n{% endhint %}`),
  );
  const page = fc.array(block, { minLength: 1, maxLength: 3 }).map((blocks) => `${blocks.join('\n\n')}\n`);

  it('survive markdown → document → markdown → document unchanged, valid against both specs', () => {
    fc.assert(
      fc.property(page, (markdown) => {
        const first = markdownToDocument(markdown);
        expectSpecSchema('JSONDocument', first);
        expectNewestSpecSchema('JSONDocument', first);
        expectRoundTrip(markdown);
      }),
      { numRuns: 200 },
    );
  });

  it('in GitBook’s form with plain words, are written back as they were', () => {
    const plainWord = fc.constantFrom('alpha', 'Beta', 'gamma', 'x1');
    const plainLine = fc
      .array(
        fc
          .record({
            words: fc.array(plainWord, { minLength: 1, maxLength: 3 }).map((list) => list.join(' ')),
            bold: fc.boolean(),
            colours,
            linked: fc.boolean(),
          })
          .map(({ words, bold, colours, linked }) => {
            const inner = `<mark style="${style(colours)}">${bold ? `**${words}**` : words}</mark>`;
            return linked ? `[${inner}](https://example.com/x)` : inner;
          }),
        { minLength: 1, maxLength: 4 },
      )
      .map((segments) => segments.join(' and '));
    fc.assert(
      fc.property(plainLine, (content) => {
        const markdown = `${content}\n`;
        expect(documentToMarkdown(markdownToDocument(markdown))).toBe(markdown);
      }),
      { numRuns: 200 },
    );
  });
});

describe('coloured text in the reader', () => {
  const render = (markdown: string) =>
    renderDocument({ document: markdownToDocument(markdown), pages: {}, files: {} }).html;

  it('is an element with a class for each colour, outside bold and code, and no inline style', () => {
    expect(
      render(
        'A <mark style="color:orange;background-color:purple;">**bold** `code`</mark> and <mark style="color:$primary;">primary</mark> and <mark style="background-color:$success;">done</mark>.\n',
      ),
    ).toBe(
      '<p>A <span class="text-orange bg-purple"><strong>bold</strong></span><span class="text-orange bg-purple"> </span>' +
        '<span class="text-orange bg-purple"><code>code</code></span> and <span class="text-primary">primary</span>' +
        ' and <span class="bg-success">done</span>.</p>',
    );
    expect(render('## <mark style="color:red;">Usage</mark>\n')).toBe(
      '<h3 id="usage"><span class="text-red">Usage</span><a class="anchor" href="#usage" aria-label="Link to Usage">#</a></h3>',
    );
  });

  it('takes nothing but GitBook’s colours from a document: other data gives no class and no style', () => {
    const hostile = document(
      paragraph(
        text(
          leaf('a', colour('red;background:url(x)', '" onmouseover="x')),
          leaf('b', { object: 'mark', type: 'color', data: { text: 'constructor', background: '__proto__' } }),
          leaf('c', { object: 'mark', type: 'color' }),
          leaf('d', colour('pink', 'green')),
        ),
      ),
    );
    expect(renderDocument({ document: hostile, pages: {}, files: {} }).html).toBe(
      '<p>abc<span class="bg-green">d</span></p>',
    );
  });

  it('has a colour for every class in the stylesheet, in the light and the dark theme', () => {
    for (const name of ['green', 'blue', 'red', 'orange', 'yellow', 'purple', 'primary', 'info', 'success']) {
      expect(READER_CSS).toContain(`.text-${name} { color: var(--text-${name}); }`);
      expect(READER_CSS).toContain(
        `.bg-${name} { background-color: color-mix(in srgb, var(--text-${name}) var(--color-tint), transparent);`,
      );
    }
    expect(READER_CSS).toContain(':root { --text-green: #1a7f37;');
    expect(READER_CSS).toContain(':root[data-theme="dark"] { --text-green: #3fb950;');
    expect(READER_CSS).toContain('--color-tint: 12%; }');
    expect(READER_CSS).toContain('--color-tint: 18%; }');
    expect(READER_CSS).toContain(
      '@media (prefers-color-scheme: dark) { :root[data-theme="auto"] { --text-green: #3fb950;',
    );
  });
});

describe('coloured text sent to the API', () => {
  const t = useTestApp();
  const api = contentApi(() => t.app);

  const colouredPage = document(
    { object: 'block', type: 'heading-2', data: {}, nodes: [text(leaf('Status', colour('$primary')))] },
    paragraph(
      text(leaf('The api is ', 'bold'), leaf('up', 'bold', colour('green')), leaf(' and ')),
      link('https://status.example.com', text(leaf('the board', colour('default', 'yellow')))),
      plain('.'),
    ),
  );

  it('is stored as GitBook’s markdown and read back as the same document, valid against both specs', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
    const { written } = await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'Status', document: { document: colouredPage } },
    ]);
    const pageId = (written.changes as Array<{ page: { id: string } }>)[0]!.page.id;
    const url = `/v1/spaces/${space.id}/content/page/${pageId}`;

    const asMarkdown = await api.read(admin, url, { format: 'markdown' });
    expect(asMarkdown.statusCode).toBe(200);
    expect(asMarkdown.json().markdown).toBe(
      '## <mark style="color:$primary;">Status</mark>\n\n' +
        '**The api is <mark style="color:green;">up</mark>** and [<mark style="background-color:yellow;">the board</mark>](https://status.example.com).\n',
    );

    const asDocument = await api.read(admin, url);
    expect(asDocument.statusCode).toBe(200);
    const read = asDocument.json().document;
    expectSpecSchema('JSONDocument', read);
    expectNewestSpecSchema('JSONDocument', read);
    expect(withoutKeys(read)).toEqual(colouredPage);
  });

  it('is refused with a 400 naming the field when its colours are not the spec’s, and nothing is written', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
    const changeRequest = await api.openChangeRequest(admin, space.id);
    const documentsBefore = await rowsInSpace(t.db, 'documents', space.id);
    const treeBefore = await rowsInSpace(t.db, 'tree_entries', space.id);
    const bad = document(paragraph(text(leaf('x', colour('magenta')))));
    const refused = await api.writeContent(admin, space.id, changeRequest, [
      { operation: 'insert_page', title: 'Bad', document: { document: bad } },
    ]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: {
        code: 400,
        message: expect.stringContaining(
          'document.nodes[0].nodes[0].leaves[0].marks[0].data.text must be one of: default, green, blue, red',
        ),
      },
    });
    expect(await rowsInSpace(t.db, 'documents', space.id)).toBe(documentsBefore);
    expect(await rowsInSpace(t.db, 'tree_entries', space.id)).toBe(treeBefore);
  });
});
