import type { Element, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { describe, expect, it } from 'vitest';
import type { JSONDocument } from '../src/document/types.js';
import { renderDocument } from '../src/html/document-html.js';
import { MAX_FORMULA_LENGTH } from '../src/html/math-html.js';
import {
  block,
  code,
  doc,
  fileRef,
  fragment,
  image,
  images,
  inline,
  pageRef,
  para,
  paragraph,
  table,
  text,
  urlRef,
  voidBlock,
  type Json,
} from './support/gitbook-blocks.js';

const render = (document: Json, extra: Partial<Parameters<typeof renderDocument>[0]> = {}) =>
  renderDocument({ document: document as unknown as JSONDocument, pages: {}, files: {}, ...extra }).html;

/** Every element of the HTML, parsed as a browser would. */
function elementsOf(html: string): Element[] {
  const elements: Element[] = [];
  const walk = (node: Nodes) => {
    if (node.type === 'element') elements.push(node);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(fromHtml(html, { fragment: true }));
  return elements;
}

describe('GitBook’s blocks, sent by anyone', () => {
  it('cannot put markup, script, style or a dangerous address on a reader’s page', () => {
    const evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const html = render(
      doc(
        images(
          { align: evil },
          image(
            {
              ref: urlRef('javascript:alert(3)'),
              refDark: urlRef('data:text/html,<script>alert(4)</script>'),
              alt: evil,
            },
            paragraph(text(evil)),
          ),
        ),
        code({ title: evil, syntax: evil, overflow: evil, lineNumbers: true }, evil),
        voidBlock('embed', { url: 'javascript:alert(5)' }),
        voidBlock('embed', { url: ' JaVaScRiPt:alert(6)' }),
        voidBlock('content-ref', { ref: urlRef('vbscript:msgbox(7)') }),
        block('hint', { style: 'constructor' }, [para('x')]),
        block('updates', { format: 'toString' }, [
          block('update', { date: evil, tags: [{ kind: 'tag', tag: evil }] }, []),
        ]),
        {
          ...block('columns', {}, [block('column', { width: { unit: '%', value: '50;background:url(x)' } }, [])]),
          isVoid: false,
        },
        voidBlock('math', { formula: '\\href{javascript:alert(8)}{x}\\htmlStyle{color:red}{y}\\htmlClass{evil}{z}' }),
        voidBlock('openapi-operation', { ref: { kind: 'openapi', spec: evil }, path: evil, method: evil }),
        block('prompt', { description: evil }, [code({}, evil)]),
        paragraph(
          inline('button', { label: evil, kind: evil, ref: urlRef('javascript:alert(9)') }),
          inline('emoji', { code: '110000' }),
          inline('expression', { expression: evil }),
        ),
        table(
          { type: 'cards', cardSize: evil, columns: ['t'], targetDefinition: 'to', coverDefinition: 'cover' },
          { t: { id: 't', title: evil, type: 'text', textAlignment: evil } },
          [{ t: 'f', to: urlRef('javascript:alert(10)'), cover: { ref: urlRef('javascript:alert(11)') } }],
          [fragment('f', para(evil))],
        ),
      ),
      { files: {}, pageTitles: { '/p': evil } },
    );
    const elements = elementsOf(html);
    expect(elements.filter((element) => ['script', 'style', 'iframe', 'object'].includes(element.tagName))).toEqual([]);
    const attributes = elements.flatMap((element) => Object.entries(element.properties));
    expect(attributes.filter(([name]) => /^on/i.test(name) || name === 'style')).toEqual([]);
    const addresses = attributes.filter(([name]) => ['href', 'src', 'srcSet'].includes(name));
    expect(addresses).toEqual([]);
    // The evil text is text: written out escaped, never as a tag.
    expect(html).not.toContain('<script');
    expect(html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(html).toContain('<div class="hint hint-info" role="note" aria-label="Info">');
    // Classes a document chose are not classes: only the renderer's own.
    const classes = new Set(
      elements.flatMap((element) => (element.properties.className as string[] | undefined) ?? []),
    );
    expect([...classes].filter((name) => /[<>"]|alert|evil/.test(name))).toEqual([]);
  });

  it('resolves no reference through an object’s prototype', () => {
    const html = render(
      doc(
        images({}, image({ ref: fileRef('constructor') })),
        voidBlock('content-ref', { ref: pageRef('__proto__') }),
        block('file', { ref: fileRef('toString') }, []),
      ),
      { files: {}, pages: {} },
    );
    expect(html).toBe(
      '<div class="images images-center"><figure><span class="missing">image</span></figure></div>' +
        '<p class="content-ref missing">A page that is not in this site</p>' +
        '<p class="file missing">A file that is no longer in this space</p>',
    );
  });

  it('numbers and folds a very long code block line by line', () => {
    const lines = Array.from({ length: 20_000 }, (_, index) => `line ${index}`);
    const html = render(doc(code({ lineNumbers: true, expandable: true }, ...lines)));
    expect(html.match(/<span class="line">/g)).toHaveLength(10);
    expect(html.match(/<span class="line folded">/g)).toHaveLength(19_990);
    expect(html).toContain('<span class="line folded">line 19999</span></code>');
  });

  it('applies a table’s merges that fit, once each, however many overlap', () => {
    const definition = {
      a: { id: 'a', title: 'A', type: 'number' },
      b: { id: 'b', title: 'B', type: 'number' },
    };
    const merges = [
      { anchor: { record: 'r0', column: 'a' }, rowSpan: 2, colSpan: 2 },
      // Overlapping, outside the table, or malformed: all left out.
      ...Array.from({ length: 5_000 }, () => ({ anchor: { record: 'r1', column: 'b' }, rowSpan: 50, colSpan: 50 })),
      { anchor: { record: 'r1', column: 'a' }, rowSpan: 1, colSpan: 1 },
      { anchor: { record: 'nope', column: 'a' }, rowSpan: 1, colSpan: 2 },
      { anchor: { record: 'r2', column: 'a' }, rowSpan: 1.5, colSpan: 2 },
      null,
    ];
    const html = render(
      doc(
        table(
          { type: 'grid', columns: ['a', 'b'], hideHeader: true },
          definition,
          [
            { a: 1, b: 2 },
            { a: 3, b: 4 },
            { a: 5, b: 6 },
          ],
          [],
          {
            cellMerges: merges,
          },
        ),
      ),
    );
    expect(html).toBe(
      '<div class="table-wrapper" tabindex="0"><table><tbody><tr><td rowspan="2" colspan="2">1</td></tr><tr></tr><tr><td>5</td><td>6</td></tr></tbody></table></div>',
    );
  });

  it('shows a formula longer than any written by hand as its TeX source', () => {
    const formula = 'x+'.repeat(MAX_FORMULA_LENGTH);
    expect(render(doc(voidBlock('math', { formula })))).toBe(
      `<div class="math-block" tabindex="0"><code class="math">${formula}</code></div>`,
    );
  });
});
