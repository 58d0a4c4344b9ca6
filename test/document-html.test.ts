import type { Element, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../src/document/from-markdown.js';
import type { JSONDocument } from '../src/document/types.js';
import { renderDocument } from '../src/html/document-html.js';

const render = (
  markdown: string,
  extra: { pages?: Record<string, string>; files?: Parameters<typeof renderDocument>[0]['files'] } = {},
) => renderDocument({ document: markdownToDocument(markdown), pages: extra.pages ?? {}, files: extra.files ?? {} });

const paragraph = (text: string, inline: object[] = []) => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }, ...inline],
});

describe('a document as the reader’s HTML', () => {
  it('renders tabs as radio buttons and panels, expandables as details, and files as downloads', () => {
    const { html } = render(
      [
        '{% tabs %}',
        '{% tab title="npm" %}',
        'Run npm.',
        '{% endtab %}',
        '{% tab title="yarn" %}',
        'Run yarn.',
        '{% endtab %}',
        '{% endtabs %}',
        '',
        '<details>',
        '',
        '<summary>More</summary>',
        '',
        'Hidden **depths**.',
        '',
        '</details>',
        '',
        '{% file src="/files/f1" %}',
      ].join('\n'),
      {
        files: {
          f1: {
            url: 'https://docs.test/files/v1/report.pdf?sig=x',
            name: 'report.pdf',
            size: 2048,
            contentType: 'application/pdf',
          },
        },
      },
    );
    expect(html).toContain(
      '<div class="tabs"><input class="tab-radio" type="radio" name="tabs-1" id="tabs-1-0" checked><label class="tab-label" for="tabs-1-0">npm</label><div class="tab-panel"><p>Run npm.</p></div>' +
        '<input class="tab-radio" type="radio" name="tabs-1" id="tabs-1-1"><label class="tab-label" for="tabs-1-1">yarn</label><div class="tab-panel"><p>Run yarn.</p></div></div>',
    );
    expect(html).toContain(
      '<details class="expandable" id="more"><summary>More</summary><div class="expandable-body"><p>Hidden <strong>depths</strong>.</p></div></details>',
    );
    expect(html).toContain(
      '<p class="file"><a href="https://docs.test/files/v1/report.pdf?sig=x" download="report.pdf">report.pdf</a><span class="file-size"> (2.0 KB)</span></p>',
    );
  });

  it('gives headings unique anchors and lists them for the table of contents', () => {
    const { html, headings } = render('# Setup\n\nA.\n\n## Setup\n\nB.\n\n### Deep `code`\n');
    expect(headings).toEqual([
      { id: 'setup', title: 'Setup', depth: 1 },
      { id: 'setup-1', title: 'Setup', depth: 2 },
      { id: 'deep-code', title: 'Deep code', depth: 3 },
    ]);
    expect(html).toContain('<h2 id="setup">Setup<a class="anchor" href="#setup" aria-label="Link to Setup">#</a></h2>');
    expect(html).toContain('<h3 id="setup-1">');
  });

  it('links pages through the addresses it is given, and shows a page it is not given as text', () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        paragraph('See ', [
          {
            object: 'inline',
            type: 'link',
            data: { ref: { kind: 'page', page: 'p1' } },
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'one', marks: [] }] }],
          },
          {
            object: 'inline',
            type: 'link',
            data: { ref: { kind: 'page', page: 'gone' } },
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'two', marks: [] }] }],
          },
          {
            object: 'inline',
            type: 'link',
            data: { ref: { kind: 'anchor', anchor: 'x y' } },
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'three', marks: [] }] }],
          },
        ]),
      ] as JSONDocument['nodes'],
    };
    const { html } = renderDocument({ document, pages: { '/p1': 'https://docs.test/s/a/b/one' }, files: {} });
    expect(html).toBe('<p>See <a href="https://docs.test/s/a/b/one">one</a>two<a href="#x%20y">three</a></p>');
  });

  it('drops what could run in a reader’s browser, even from a document sent as JSON', () => {
    const link = (url: string, text: string) => ({
      object: 'inline',
      type: 'link',
      data: { ref: { kind: 'url', url } },
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    });
    const document = {
      object: 'document',
      data: {},
      nodes: [
        paragraph('', [
          link('javascript:alert(1)', 'a'),
          link(' JaVaScRiPt:alert(2)', 'b'),
          link('data:text/html,<script>alert(3)</script>', 'c'),
          link('vbscript:msgbox(4)', 'd'),
          link('https://ok.example/?q=<script>', 'e'),
        ]),
        {
          object: 'block',
          type: 'images',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'image',
              data: { ref: { kind: 'url', url: 'javascript:alert(5)' }, alt: '" onerror="alert(6)' },
              fragments: [],
              isVoid: true,
            },
          ],
        },
        {
          object: 'block',
          type: 'code',
          data: { syntax: '"><script>alert(7)</script>' },
          nodes: [
            {
              object: 'block',
              type: 'code-line',
              data: {},
              nodes: [
                { object: 'text', leaves: [{ object: 'leaf', text: '</code><script>alert(8)</script>', marks: [] }] },
              ],
            },
          ],
        },
      ],
    } as unknown as JSONDocument;
    const { html } = renderDocument({ document, pages: {}, files: {} });
    // Parsed as a browser would: no script element, no handler attribute, no address with a scheme that runs.
    const elements: Element[] = [];
    const walk = (node: Nodes) => {
      if (node.type === 'element') elements.push(node);
      if ('children' in node) for (const child of node.children) walk(child);
    };
    walk(fromHtml(html, { fragment: true }));
    expect(elements.map((element) => element.tagName)).toEqual(['p', 'a', 'div', 'figure', 'span', 'pre', 'code']);
    const attributes = elements.flatMap((element) => Object.entries(element.properties));
    expect(attributes.filter(([name]) => /^on/i.test(name))).toEqual([]);
    expect(attributes.filter(([name]) => name === 'href' || name === 'src')).toEqual([
      ['href', 'https://ok.example/?q=<script>'],
    ]);
    expect(html).toContain('&#x3C;/code>&#x3C;script>alert(8)&#x3C;/script>');
  });
});
