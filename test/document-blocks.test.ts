import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../src/core/errors.js';
import {
  checkDocumentBounds,
  collectReferences,
  documentToMarkdown,
  markdownToDocument,
  type JSONDocument,
} from '../src/document/index.js';
import { documentFacts } from '../src/document/facts.js';
import { documentOfTree, markdownTree } from '../src/document/from-markdown.js';
import { isolateBlockTags, MAX_HTML_FRAGMENTS } from '../src/document/isolate-tags.js';
import { parseMarkdown } from '../src/document/markdown-tree.js';
import { finishes } from './support/hang-guard.js';
import { expectSpecSchema } from './support/spec.js';

type Json = Record<string, unknown>;

function withoutKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (name, v: unknown) => (name === 'key' ? undefined : v))) as T;
}

/** The document's blocks without keys, after checking the whole document against the spec. */
function blocksOf(markdown: string): Json[] {
  const document = markdownToDocument(markdown);
  expectSpecSchema('JSONDocument', document);
  return withoutKeys(document).nodes as unknown as Json[];
}

const mark = (type: string) => ({ object: 'mark', type });
const leaf = (text: string, ...marks: string[]) => ({ object: 'leaf', text, marks: marks.map(mark) });
const text = (...leaves: Json[]) => ({ object: 'text', leaves });
const plain = (value: string) => text(leaf(value));
const paragraph = (...nodes: Json[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const para = (value: string) => paragraph(plain(value));
const link = (ref: Json, label: string) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [plain(label)] });
const linkParagraph = (ref: Json, label: string) => paragraph(plain(''), link(ref, label), plain(''));
const tab = (title: string, ...nodes: Json[]) => ({ object: 'block', type: 'tabs-item', data: { title }, nodes });
const tabs = (...items: Json[]) => ({ object: 'block', type: 'tabs', data: {}, nodes: items });
const expandable = (title: Json, ...body: Json[]) => ({
  object: 'block',
  type: 'expandable',
  data: {},
  isVoid: true,
  fragments: [
    { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [title] },
    { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body },
  ],
});
const file = (id: string) => ({
  object: 'block',
  type: 'file',
  data: { ref: { kind: 'file', file: id } },
  isVoid: true,
});
const document = (...nodes: Json[]) => ({ object: 'document', data: {}, nodes }) as unknown as JSONDocument;

/** Markdown → document → markdown → document gives the same document, and markdown written once is written again as is. */
function expectRoundTrip(markdown: string): void {
  const first = markdownToDocument(markdown);
  const written = documentToMarkdown(first);
  expect(withoutKeys(markdownToDocument(written))).toEqual(withoutKeys(first));
  expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
}

const TABS = `{% tabs %}
{% tab title="First" %}
One **bold** line.
{% endtab %}

{% tab title="Second" %}
\`\`\`js
run();
\`\`\`
{% endtab %}
{% endtabs %}
`;

const DETAILS = `<details>

<summary>Show the <em>answer</em></summary>

It is *42*.

* a list inside

</details>
`;

describe('tabs', () => {
  it('are read from GitBook’s tags, content hugging them, into tabs of tabs-items', () => {
    expect(blocksOf(TABS)).toEqual([
      tabs(
        tab('First', paragraph(text(leaf('One '), leaf('bold', 'bold'), leaf(' line.')))),
        tab('Second', {
          object: 'block',
          type: 'code',
          data: { syntax: 'js' },
          nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [plain('run();')] }],
        }),
      ),
    ]);
  });

  it('are written back in GitBook’s form', () => {
    expect(documentToMarkdown(markdownToDocument(TABS))).toBe(`{% tabs %}
{% tab title="First" %}
One **bold** line.
{% endtab %}

{% tab title="Second" %}
\`\`\`js
run();
\`\`\`
{% endtab %}
{% endtabs %}
`);
    expectRoundTrip(TABS);
  });

  it('hold hints, quotes, lists, images and files, and an empty tab holds an empty paragraph', () => {
    const markdown = [
      '{% tabs %}',
      '{% tab title="All" %}',
      '{% hint style="warning" %}',
      'Careful',
      '{% endhint %}',
      '',
      '> quoted',
      '',
      '- item',
      '',
      '![diagram](/files/img1)',
      '',
      '{% file src="/files/pdf1" %}',
      '{% endtab %}',
      '',
      '{% tab title="" %}',
      '{% endtab %}',
      '{% endtabs %}',
    ].join('\n');
    expect(blocksOf(markdown)).toEqual([
      tabs(
        tab(
          'All',
          { object: 'block', type: 'hint', data: { style: 'warning' }, nodes: [para('Careful')] },
          { object: 'block', type: 'blockquote', data: {}, nodes: [para('quoted')] },
          {
            object: 'block',
            type: 'list-unordered',
            data: {},
            nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [para('item')] }],
          },
          {
            object: 'block',
            type: 'images',
            data: {},
            isVoid: false,
            nodes: [
              {
                object: 'block',
                type: 'image',
                data: { ref: { kind: 'file', file: 'img1' }, alt: 'diagram' },
                fragments: [],
                isVoid: true,
              },
            ],
          },
          file('pdf1'),
        ),
        tab('', paragraph(plain(''))),
      ),
    ]);
    expectRoundTrip(markdown);
  });

  it('keep titles of any characters through a write and a read', () => {
    const titles = ['a *b* `c` [d](e) <f> & \\ ~g~', 'support@example.com www.example.com', 'say "hi" %} 50%', ''];
    const sent = document(tabs(...titles.map((title, index) => tab(title, para(`tab ${index}`)))));
    const markdown = documentToMarkdown(sent);
    // Only what a paragraph would read as more than text is escaped: not `&` before a space.
    expect(markdown).toContain('{% tab title="a \\*b\\* \\`c\\` \\[d\\](e) \\<f> & \\\\ \\~g\\~" %}');
    expect(withoutKeys(markdownToDocument(markdown))).toEqual(sent);
  });

  it('keep a stray line between tabs in the tab before it, or in the first tab', () => {
    const markdown = `{% tabs %}
before
{% tab title="A" %}
a
{% endtab %}
between
{% tab title="B" %}
b
{% endtab %}
{% endtabs %}`;
    expect(blocksOf(markdown)).toEqual([
      tabs(tab('A', para('before'), para('a'), para('between')), tab('B', para('b'))),
    ]);
  });

  it('are text where their tags do not pair: unclosed, stray, a tab outside tabs, tabs of no tab', () => {
    const lines = (...values: string[]) => values.map(para);
    expect(blocksOf('{% tabs %}\n{% tab title="A" %}\na\n{% endtab %}')).toEqual(
      lines('{% tabs %}', '{% tab title="A" %}', 'a', '{% endtab %}'),
    );
    expect(blocksOf('{% tab title="A" %}\na\n{% endtab %}')).toEqual(lines('{% tab title="A" %}', 'a', '{% endtab %}'));
    expect(blocksOf('{% tabs %}\njust text\n{% endtabs %}')).toEqual(lines('{% tabs %}', 'just text', '{% endtabs %}'));
    expect(blocksOf('a\n{% endtab %}\n{% endtabs %}\nb')).toEqual(lines('a', '{% endtab %}', '{% endtabs %}', 'b'));
    // `{% endtabs %}` closes the tabs; the tab it leaves open is text inside the tabs, so they hold no tab.
    expect(blocksOf('{% tabs %}\n{% tab title="A" %}\na\n{% endtabs %}')).toEqual(
      lines('{% tabs %}', '{% tab title="A" %}', 'a', '{% endtabs %}'),
    );
    // A second tab opened before the first closed is text of the first.
    expect(blocksOf('{% tabs %}\n{% tab title="A" %}\n{% tab title="B" %}\n{% endtab %}\n{% endtabs %}')).toEqual([
      tabs(tab('A', para('{% tab title="B" %}'))),
    ]);
    // Attributes tabs do not have, and tags of no known kind, are text.
    expect(blocksOf('{% tab name="A" %}\n\n{% tabs x %}\n\n{% endtabs x %}')).toEqual(
      lines('{% tab name="A" %}', '{% tabs x %}', '{% endtabs x %}'),
    );
  });

  it('close where markdown reads the closing tag as part of a table or a list', () => {
    const markdown =
      '{% tabs %}\n{% tab title="A" %}\n- one\n{% endtab %}\n\n{% tab title="B" %}\n| x |\n| - |\n| 1 |\n{% endtab %}\n{% endtabs %}';
    const item = (value: string) => ({ object: 'block', type: 'list-item', data: {}, nodes: [para(value)] });
    expect(blocksOf(markdown)).toEqual([
      tabs(
        tab('A', { object: 'block', type: 'list-unordered', data: {}, nodes: [item('one')] }),
        // The spec’s tabs hold no table: its rows become paragraphs.
        tab('B', para('x'), para('1')),
      ),
    ]);
  });

  it('nested in a tab, a list, a quote or a hint, which cannot hold them, become their content under bold titles', () => {
    const inner = '{% tabs %}\n{% tab title="Inner" %}\ninside\n{% endtab %}\n{% endtabs %}';
    const unfolded = [paragraph(text(leaf('Inner', 'bold'))), para('inside')];
    expect(blocksOf(`{% tabs %}\n{% tab title="Outer" %}\n${inner}\n{% endtab %}\n{% endtabs %}`)).toEqual([
      tabs(tab('Outer', ...unfolded)),
    ]);
    expect(blocksOf(`> ${inner.replaceAll('\n', '\n> ')}`)).toEqual([
      { object: 'block', type: 'blockquote', data: {}, nodes: unfolded },
    ]);
    expect(blocksOf(`{% hint style="info" %}\n${inner}\n{% endhint %}`)).toEqual([
      { object: 'block', type: 'hint', data: { style: 'info' }, nodes: unfolded },
    ]);
    expect(blocksOf(`- item\n\n  ${inner.replaceAll('\n', '\n  ')}`)).toEqual([
      {
        object: 'block',
        type: 'list-unordered',
        data: {},
        nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [para('item'), ...unfolded] }],
      },
    ]);
  });
});

describe('expandables', () => {
  const answer = expandable(para('Show the answer'), paragraph(text(leaf('It is '), leaf('42', 'italic'), leaf('.'))), {
    object: 'block',
    type: 'list-unordered',
    data: {},
    nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [para('a list inside')] }],
  });

  it('are read from GitBook’s <details> form into a title and a body fragment', () => {
    expect(blocksOf(DETAILS)).toEqual([answer]);
  });

  it('are read from the other ways <details> is written', () => {
    const body = para('Body');
    const variants: Array<[string, Json]> = [
      // One HTML block to the parser: the tags and the markdown after them until a blank line.
      ['<details>\n<summary>Title</summary>\nBody\n</details>', expandable(para('Title'), body)],
      ['<details><summary>Title</summary>\n\nBody\n\n</details>', expandable(para('Title'), body)],
      ['<details open>\n  <summary>\n    Title\n  </summary>\n\nBody\n</details>', expandable(para('Title'), body)],
      [
        '<DETAILS>\n<SUMMARY>**Title**</SUMMARY>\n\nBody\n\n</DETAILS>',
        expandable(paragraph(text(leaf('Title', 'bold'))), body),
      ],
      ['<details>\n<summary><b>Title</b> here</summary>\n\nBody\n\n</details>', expandable(para('Title here'), body)],
      ['<details>\n\nBody\n\n</details>', expandable(paragraph(plain('')), body)],
      ['<details>\n<summary>Title</summary>\n</details>', expandable(para('Title'), paragraph(plain('')))],
    ];
    for (const [markdown, block] of variants) expect(blocksOf(markdown), markdown).toEqual([block]);
    expect(blocksOf('<details>\n<summary>T</summary>\nBody\n</details>\nafter')).toEqual([
      expandable(para('T'), body),
      para('after'),
    ]);
  });

  it('are written back in GitBook’s form, and read back the same', () => {
    expect(documentToMarkdown(markdownToDocument(DETAILS))).toBe(`<details>

<summary>Show the answer</summary>

It is *42*.

* a list inside

</details>
`);
    expectRoundTrip(DETAILS);
    expectRoundTrip('<details>\n<summary>Title</summary>\nBody\n</details>\n\nafter');
  });

  it('keep titles and bodies that look like their tags through a write and a read', () => {
    const sent = document(
      expandable(
        paragraph(text(leaf('a </summary> & <b> '), leaf('x', 'bold'), leaf(' \\'))),
        para('</details>'),
        para('<details>'),
        para('<summary>no</summary>'),
      ),
    );
    expect(withoutKeys(markdownToDocument(documentToMarkdown(sent)))).toEqual(sent);
  });

  it('stay HTML when never closed, and a stray </details> or <summary> stays HTML', () => {
    const html = (value: string) => ({
      object: 'block',
      type: 'code',
      data: { syntax: 'html' },
      nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [plain(value)] }],
    });
    expect(blocksOf('<details>\n\n<summary>Never closed</summary>\n\nbody')).toEqual([
      html('<details>'),
      html('<summary>Never closed</summary>'),
      para('body'),
    ]);
    expect(blocksOf('text\n\n</details>\n\n<summary>Alone</summary>')).toEqual([
      para('text'),
      html('</details>'),
      html('<summary>Alone</summary>'),
    ]);
  });

  it('nested in an expandable, a list or a quote, which cannot hold them, become their title and body', () => {
    const inner = '<details>\n<summary>Inner</summary>\n\ninside\n\n</details>';
    expect(blocksOf(`<details>\n<summary>Outer</summary>\n\n${inner}\n\n</details>`)).toEqual([
      expandable(para('Outer'), para('Inner'), para('inside')),
    ]);
    expect(blocksOf(`- item\n\n  ${inner.replaceAll('\n', '\n  ')}`)).toEqual([
      {
        object: 'block',
        type: 'list-unordered',
        data: {},
        nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [para('item'), para('Inner'), para('inside')] }],
      },
    ]);
  });

  it('hold tabs only as their content, and tabs hold expandables only as theirs', () => {
    const tabsMarkdown = '{% tabs %}\n{% tab title="T" %}\nin tab\n{% endtab %}\n{% endtabs %}';
    expect(blocksOf(`<details>\n<summary>E</summary>\n\n${tabsMarkdown}\n\n</details>`)).toEqual([
      expandable(para('E'), paragraph(text(leaf('T', 'bold'))), para('in tab')),
    ]);
    expect(
      blocksOf(
        '{% tabs %}\n{% tab title="T" %}\n\n<details>\n<summary>E</summary>\n\nbody\n</details>\n{% endtab %}\n{% endtabs %}',
      ),
    ).toEqual([tabs(tab('T', para('E'), para('body')))]);
  });
});

describe('files', () => {
  it('are read from {% file %} with or without a caption, a file of the space as a file block', () => {
    expect(blocksOf('{% file src="/files/f1" %}Annual report{% endfile %}')).toEqual([file('f1')]);
    expect(blocksOf('{% file src="/files/f1" %}')).toEqual([file('f1')]);
    expect(blocksOf('{% file src="/files/f1" %}\nAnnual report\n{% endfile %}\nafter')).toEqual([
      file('f1'),
      para('after'),
    ]);
    expect(blocksOf('{% file src="/files/f1" %}\n{% endfile %}')).toEqual([file('f1')]);
  });

  it('that name a URL are a link to it, labelled with the caption: the spec’s file block names files only', () => {
    expect(blocksOf('{% file src="https://example.com/a.pdf" %}Spec sheet{% endfile %}')).toEqual([
      linkParagraph({ kind: 'url', url: 'https://example.com/a.pdf' }, 'Spec sheet'),
    ]);
    expect(blocksOf('{% file src="../.gitbook/assets/a.pdf" %}')).toEqual([
      linkParagraph({ kind: 'url', url: '../.gitbook/assets/a.pdf' }, '../.gitbook/assets/a.pdf'),
    ]);
  });

  it('where no file block may go (a list, a quote, an expandable) are a link to the file', () => {
    const report = linkParagraph({ kind: 'file', file: 'f1' }, 'Report');
    expect(blocksOf('- item\n  {% file src="/files/f1" %}Report{% endfile %}')).toEqual([
      {
        object: 'block',
        type: 'list-unordered',
        data: {},
        nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [para('item'), report] }],
      },
    ]);
    expect(
      blocksOf('<details>\n<summary>F</summary>\n\n{% file src="/files/f1" %}Report{% endfile %}\n</details>'),
    ).toEqual([expandable(para('F'), report)]);
  });

  it('are written as {% file %} with a /files URL, and read back the same', () => {
    expect(documentToMarkdown(document(file('f1'), para('text')))).toBe('{% file src="/files/f1" %}\n\ntext\n');
    expectRoundTrip('{% file src="/files/f1" %}\n\ntext');
    // A file block whose reference no URL can name is left out, as links to such references are.
    expect(documentToMarkdown(document({ ...file('f1'), data: { ref: { kind: 'file', file: '' } } }))).toBe('');
  });

  it('are text when stray or without a source', () => {
    expect(blocksOf('{% endfile %}\n{% file src="" %}\n\n{% file %}')).toEqual([
      para('{% endfile %}'),
      para('{% file src="" %}'),
      para('{% file %}'),
    ]);
  });

  it('count as references to their file, and as links the page depends on', () => {
    const markdown = '{% file src="/files/f1" %}Report{% endfile %}\n\n{% file src="https://example.com/b.pdf" %}';
    expect(collectReferences(markdown)).toEqual({ pages: [], files: ['f1'] });
    expect(documentFacts(markdownTree(markdown)).links).toEqual([
      { kind: 'file', file: 'f1', relation: 'dependsOn' },
      { kind: 'url', url: 'https://example.com/b.pdf', relation: 'reference' },
    ]);
  });
});

describe('keys', () => {
  it('number the new blocks, their fragments and tabs in document order, a node before its fragments and children', () => {
    const keys = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value, (name, v: unknown) =>
          ['leaves', 'data', 'object', 'isVoid', 'fragment'].includes(name) ? undefined : v,
        ),
      );
    const written =
      '<details>\n\n<summary>S</summary>\n\nbody\n\n</details>\n\n{% tabs %}\n{% tab title="A" %}\na\n{% endtab %}\n{% endtabs %}';
    expect(keys(markdownToDocument(written).nodes)).toEqual([
      {
        key: '1',
        type: 'expandable',
        fragments: [
          { key: '2', type: 'expandable-title', nodes: [{ key: '3', type: 'paragraph', nodes: [{ key: '4' }] }] },
          { key: '5', type: 'expandable-body', nodes: [{ key: '6', type: 'paragraph', nodes: [{ key: '7' }] }] },
        ],
      },
      {
        key: '8',
        type: 'tabs',
        nodes: [{ key: '9', type: 'tabs-item', nodes: [{ key: 'a', type: 'paragraph', nodes: [{ key: 'b' }] }] }],
      },
    ]);
  });
});

describe('search and outline facts', () => {
  it('include the titles and text inside tabs and expandables, not the tags', () => {
    const markdown = `Intro

${TABS}
## Details

<details>
<summary>Hidden title</summary>
Hidden body
</details>

{% file src="/files/f1" %}Report{% endfile %}
`;
    expect(documentFacts(markdownTree(markdown)).outline).toEqual([
      { anchor: null, title: '', text: 'Intro\nFirst\nOne bold line.\nSecond\nrun();' },
      { anchor: 'details', title: 'Details', text: 'Hidden title\nHidden body\nReport', expandables: ['hidden-title'] },
    ]);
  });
});

describe('bounds', () => {
  /** The block-tag stages on a parsed tree (the parser's own time is its own matter), under the hang guard. */
  function tagStages(markdown: string): JSONDocument {
    return tagStagesOf(parseMarkdown(markdown), markdown.slice(0, 40));
  }

  /**
   * The block-tag stages on `tree`, under a hang guard of a minute: they take up to about a second
   * on an idle machine, many on a loaded one, and going back over what they read would take many minutes.
   */
  function tagStagesOf(tree: Root, what: string): JSONDocument {
    return finishes(
      () => {
        isolateBlockTags(tree);
        return documentOfTree(tree);
      },
      what,
      60_000,
    );
  }

  /** The tree the parser makes of `lines` lines of `{% tab %}`: one paragraph of one text. */
  const unpairedTabs = (lines: number): Root => ({
    type: 'root',
    children: [{ type: 'paragraph', children: [{ type: 'text', value: Array(lines).fill('{% tab %}').join('\n') }] }],
  });
  const withoutPositions = (node: unknown): unknown =>
    JSON.parse(JSON.stringify(node, (key, value: unknown) => (key === 'position' ? undefined : value)));

  // The parser's own time on a 50,000-line paragraph is seconds (minutes on a loaded machine), so the stages
  // read the tree it makes, built here (and checked against the parser's on a few lines). They take about
  // 250 ms on an idle machine; pairing that went back over the lines read would take minutes.
  it('read 50,000 unpaired {% tab %} lines in linear time', () => {
    expect(withoutPositions(parseMarkdown('{% tab %}\n'.repeat(3)))).toEqual(unpairedTabs(3));
    expect(tagStagesOf(unpairedTabs(50_000), '{% tab %} × 50,000').nodes).toHaveLength(50_000);
  });

  // Other shapes of tags (hints, tabs, stray closings, HTML expandables) are counted, not timed, in
  // document-gitbook-tags-bounds.test.ts. One HTML block of 20,000 summaries is one block to that count.
  it('read an HTML expandable holding 20,000 summaries in linear time', { timeout: 120_000 }, () => {
    expect(tagStages(`<details>\n${'<summary>\n'.repeat(20_000)}`).nodes.length).toBeGreaterThan(0);
  });

  it('parse at most a bounded number of markdown pieces out of HTML blocks', () => {
    const markdown = '<details>\n<summary>Title</summary>\n*text*\n</details>\n\n'.repeat(MAX_HTML_FRAGMENTS + 10);
    const blocks = withoutKeys(markdownToDocument(markdown)).nodes as unknown as Json[];
    expect(blocks).toHaveLength(MAX_HTML_FRAGMENTS + 10);
    expect(blocks[0]).toEqual(expandable(para('Title'), paragraph(text(leaf('text', 'italic')))));
    // Past the bound, the piece stays the HTML it was to the parser.
    expect((blocks.at(-1)!.fragments as Json[])[1]).toMatchObject({
      nodes: [{ type: 'code', data: { syntax: 'html' } }],
    });
  });

  // The parser's own time on a thousand levels is tens of seconds on a loaded machine; the timeout is for it.
  it(
    'keep tabs and expandables nested a thousand deep within the nesting bound, and their text',
    { timeout: 120_000 },
    () => {
      const depth = 1_000;
      const nestedTabs =
        '{% tabs %}\n{% tab title="t" %}\n'.repeat(depth) + 'core\n' + '{% endtab %}\n{% endtabs %}\n'.repeat(depth);
      const nestedDetails =
        '<details>\n\n<summary>s</summary>\n\n'.repeat(depth) + 'core\n\n' + '</details>\n\n'.repeat(depth);
      for (const markdown of [nestedTabs, nestedDetails]) {
        const document = markdownToDocument(markdown);
        expectSpecSchema('JSONDocument', document);
        expect(JSON.stringify(document)).toContain('"core"');
        // What the service makes, it takes back: within the document limits, and written as markdown again.
        expect(checkDocumentBounds(document, 'document')).toBeGreaterThan(0);
        expect(documentToMarkdown(document)).toContain('core');
      }
    },
  );

  it('refuse, as any block, input documents nested past the limits', () => {
    let node: Json = para('deep');
    for (let i = 0; i < 100; i += 1) node = tabs(tab('t', node));
    expect(() => checkDocumentBounds(document(node), 'body/document')).toThrow(/nests too deeply/);
    expect(() => documentToMarkdown(document(node))).toThrow('levels deep');
  });
});

describe('input documents', () => {
  it('are written with every block kind this service reads, valid against the spec', () => {
    const sent = document(
      tabs(tab('One', para('first'), file('f1')), tab('Two', para('second'))),
      expandable(para('More'), para('hidden')),
      file('f2'),
    );
    expectSpecSchema('JSONDocument', sent);
    const markdown = documentToMarkdown(sent);
    expect(markdown).toBe(`{% tabs %}
{% tab title="One" %}
first

{% file src="/files/f1" %}

{% endtab %}

{% tab title="Two" %}
second
{% endtab %}
{% endtabs %}

<details>

<summary>More</summary>

hidden

</details>

{% file src="/files/f2" %}
`);
    expect(withoutKeys(markdownToDocument(markdown))).toEqual(sent);
  });

  it.each([
    [
      'a tab title that is not a string',
      document(tabs({ ...tab('x', para('a')), data: { title: 3 } })),
      'document.nodes[0].nodes[0].data.title must be a string',
    ],
    [
      'tabs without nodes',
      document({ object: 'block', type: 'tabs', data: {} }),
      'document.nodes[0].nodes must be an array',
    ],
    [
      'an expandable without fragments',
      document({ object: 'block', type: 'expandable', data: {}, isVoid: true }),
      'document.nodes[0].fragments must be an array',
    ],
    [
      'a file without a reference',
      document({ object: 'block', type: 'file', data: {}, isVoid: true }),
      'document.nodes[0].data.ref must be an object',
    ],
  ])('refuse %s with a BadRequestError naming it', (_, sent, message) => {
    expect(() => documentToMarkdown(sent)).toThrow(BadRequestError);
    expect(() => documentToMarkdown(sent)).toThrow(message);
  });
});
