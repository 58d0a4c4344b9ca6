/**
 * Heading anchors as GitBook makes them: an id its author gives a heading
 * (`<a id="x"></a>` or `<a href="#x" id="x"></a>` at its end) is kept, written
 * back and targeted; a heading without one gets GitBook's id for its title.
 * The document, the reader and the link checker agree on them.
 */
import { describe, expect, it } from 'vitest';
import { headingAnchor, HeadingIds } from '../src/core/heading-anchors.js';
import { documentFacts } from '../src/document/facts.js';
import { markdownTree } from '../src/document/from-markdown.js';
import { documentToMarkdown, markdownToDocument, type JSONDocument } from '../src/document/index.js';
import { isUnresolvedPageUrl } from '../src/document/links.js';
import { urlDestinations } from '../src/document/rewrite-urls.js';
import { renderDocument } from '../src/html/document-html.js';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';

const t = useTestApp();
const api = contentApi(() => t.app);

/** A value without its nodes' `key`s, which number the nodes and say nothing of them. */
function withoutKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([name, v]) => (name === 'key' ? [] : [[name, withoutKeys(v)]])),
  );
}
const headingsOf = (markdown: string) =>
  withoutKeys(markdownToDocument(markdown).nodes) as Array<Record<string, unknown>>;
const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const idsOf = (markdown: string) => renderDocument({ document: markdownToDocument(markdown), pages: {}, files: {} });

describe('GitBook’s id for a heading without one', () => {
  it('keeps dots, drops accents and other punctuation, and puts id- before a digit', () => {
    expect(
      [
        'Getting started',
        '1. Install the app',
        '2. Add a key (optional)',
        'Options… and more',
        'Café & crème',
        'Math & TeX',
        'C++ and C_sharp',
        '  --Spaced--out--  ',
        '42',
        '!!!',
        '',
      ].map(headingAnchor),
    ).toEqual([
      'getting-started',
      'id-1.-install-the-app',
      'id-2.-add-a-key-optional',
      'options...-and-more',
      'cafe-and-creme',
      'math-and-tex',
      'c++-and-c_sharp',
      'spaced-out',
      'id-42',
      '',
      '',
    ]);
  });

  it('is unique on a page: a repeated title gets -1, -2, an author’s id stays as written', () => {
    const ids = new HeadingIds();
    expect(
      [ids.next('Usage'), ids.next('Usage'), ids.next('Usage', 'usage'), ids.next('Usage'), ids.next('')].map(
        (identity) => identity.id,
      ),
    ).toEqual(['usage', 'usage-1', 'usage', 'usage-2', 'section']);
  });

  it('stays linear on a long title of punctuation', () => {
    expect(headingAnchor('-.'.repeat(100_000))).toBe('.'.repeat(100_000).split('').join('-'));
  });
});

describe('an id the author gives a heading', () => {
  it('is its data.id, in both of the forms GitBook writes, and is written back in GitBook’s', () => {
    const markdown = [
      '### Diff view <a id="diff-mode"></a>',
      '',
      '## Get going <a href="#start" id="start"></a>',
      '',
      '## Plain',
      '',
    ].join('\n');
    expect(headingsOf(markdown)).toEqual([
      { object: 'block', type: 'heading-3', data: { id: 'diff-mode' }, nodes: [text('Diff view')] },
      { object: 'block', type: 'heading-2', data: { id: 'start' }, nodes: [text('Get going')] },
      { object: 'block', type: 'heading-2', data: {}, nodes: [text('Plain')] },
    ]);
    const written = documentToMarkdown(markdownToDocument(markdown));
    expect(written).toBe(
      [
        '### Diff view <a href="#diff-mode" id="diff-mode"></a>',
        '',
        '## Get going <a href="#start" id="start"></a>',
        '',
        '## Plain',
        '',
      ].join('\n'),
    );
    expect(markdownToDocument(written)).toEqual(markdownToDocument(markdown));
  });

  it('is not read from an anchor that is not one: other attributes, another href, a bad id, not at the end', () => {
    for (const heading of [
      '## Title <a id="x" onclick="go()"></a>',
      '## Title <a href="https://example.com" id="x"></a>',
      '## Title <a id="Upper Case"></a>',
      '## Title <a id="x"></a> and more',
      '## Title <a id="x" id="y"></a>',
      '## Title <a id="x">text</a>',
      `## Title <a id="${'x'.repeat(300)}"></a>`,
    ]) {
      const [block] = headingsOf(heading);
      expect(block, heading).toMatchObject({ type: 'heading-2', data: {} });
      expect((block as { data: object }).data, heading).toEqual({});
    }
  });

  it('is left out of the markdown when a JSON document gives one GitBook’s pattern refuses', () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'heading-2', data: { id: 'x" onmouseover="y' }, nodes: [text('Title')] }],
    } as unknown as JSONDocument;
    expect(documentToMarkdown(document)).toBe('## Title\n');
  });
});

describe('the reader and the link checker', () => {
  it('give a heading the author’s id or GitBook’s, and keep the id the reader gave before as a target', () => {
    const { html, headings } = idsOf(
      ['### Diff view <a id="diff-mode"></a>', '', '## 1. Create an app', '', '## Setup', ''].join('\n'),
    );
    expect(headings.map((heading) => heading.id)).toEqual(['diff-mode', 'id-1.-create-an-app', 'setup']);
    expect(html).toContain('<h4 id="diff-mode"><span id="diff-view"></span>Diff view<a');
    expect(html).toContain('<h3 id="id-1.-create-an-app"><span id="1-create-an-app"></span>1. Create an app<a');
    expect(html).toContain('<h3 id="setup">Setup<a');

    const expandables = documentFacts(
      markdownTree(
        ['## Roles', '', '<details>', '', '<summary>Admin role</summary>', '', 'All of it.', '', '</details>', ''].join(
          '\n',
        ),
      ),
    );
    expect(expandables.outline).toMatchObject([{ anchor: 'roles', expandables: ['admin-role'] }]);

    const facts = documentFacts(
      markdownTree(['### Diff view <a id="diff-mode"></a>', '', '## 1. Create an app', '', 'Text.', ''].join('\n')),
    );
    expect(facts.outline.map((section) => [section.anchor, section.title])).toEqual([
      ['diff-mode', 'Diff view'],
      ['id-1.-create-an-app', '1. Create an app'],
    ]);
  });

  it('count a link to an author’s, GitBook’s or the former id ok, and to no heading’s broken', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id);
    const { written } = await api.change(admin, space.id, [
      {
        operation: 'insert_page',
        ref: 'target.md',
        title: 'Target',
        document: {
          markdown: '## Diff view <a href="#diff-mode" id="diff-mode"></a>\n\n## 1. Create an app\n\nText.\n',
        },
      },
      {
        operation: 'insert_page',
        ref: 'source.md',
        title: 'Source',
        document: {
          markdown: [
            '[a](target.md#diff-mode) [b](target.md#id-1.-create-an-app) [c](target.md#1-create-an-app)',
            '[d](target.md#diff-view) [e](target.md#create-an-app) [f](#nowhere)',
            '',
          ].join('\n'),
        },
      },
    ]);
    const ids = Object.fromEntries(
      (written.changes as Array<{ ref: string; page: { id: string } }>).map((change) => [change.ref, change.page.id]),
    );
    const res = await api.read(admin, `/v1/spaces/${space.id}/content/page/${ids['source.md']}/links`);
    expect(res.statusCode, res.body).toBe(200);
    const items = (
      res.json().items as Array<{ status: string; targetReference: { internalLocation?: { anchor: string } } }>
    ).map((item) => `${item.status} #${item.targetReference.internalLocation?.anchor}`);
    expect(items).toEqual([
      'broken #nowhere',
      'ok #1-create-an-app',
      'broken #create-an-app',
      'ok #diff-mode',
      'ok #diff-view',
      'ok #id-1.-create-an-app',
    ]);
  });
});

describe('a link left as written', () => {
  it('names a missing page when its path is a page path or a .md, not a file or another site', () => {
    expect(
      [
        'next.md',
        '../a/b.md#part',
        'guides/',
        './',
        '../',
        'setup',
        '/pages/a/b',
        'diagram.png',
        '.gitbook/assets/a.pdf',
        'https://example.com/a.md',
        'mailto:a@example.com',
        '//cdn.example.com/x',
        '#anchor',
        '?q=1',
        '',
      ].filter(isUnresolvedPageUrl),
    ).toEqual(['next.md', '../a/b.md#part', 'guides/', './', '../', 'setup', '/pages/a/b']);
  });

  it('is found in GitBook’s HTML attributes and content-ref tags, where the text holds it verbatim, not in code', () => {
    const markdown = [
      '<figure><img src="a.png" alt="A"><figcaption><p>A</p></figcaption></figure>',
      '',
      'Text with <a href="b.md">inline HTML</a> and [a link](c.md).',
      '',
      '{% content-ref url="d.md" %}',
      '[d.md](d.md)',
      '{% endcontent-ref %}',
      '',
      '    <a href="indented-code.md">',
      '',
      '`<a href="inline-code.md">`',
      '',
      '> <a href="quoted.md">in a quote</a>',
      '',
    ].join('\n');
    const found = urlDestinations(markdown).map(({ url, kind, start, end }) => {
      expect(markdown.slice(start, end), url).toBe(url);
      return `${kind} ${url}`;
    });
    expect(found).toEqual([
      'attribute a.png',
      'attribute b.md',
      'link c.md',
      'attribute d.md',
      'link d.md',
      'attribute quoted.md',
    ]);
  });

  it('is not read from an attribute value past any real URL’s length, however long the text', () => {
    const unclosed = `<div>${' href="'.repeat(20_000)}${'x'.repeat(100_000)}</div>`;
    expect(urlDestinations(`${unclosed}\n`).filter((found) => found.url.startsWith('x'))).toEqual([]);
    expect(urlDestinations(`<a href="${'y'.repeat(3000)}">long</a>\n`)).toEqual([]);
  });
});
