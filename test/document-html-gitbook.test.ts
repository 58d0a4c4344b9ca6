import { describe, expect, it } from 'vitest';
import type { JSONDocument } from '../src/document/types.js';
import { renderDocument, type RenderInput } from '../src/html/document-html.js';
import {
  block,
  code,
  doc,
  fileRef,
  fragment,
  heading,
  image,
  images,
  inline,
  link,
  pageRef,
  para,
  paragraph,
  table,
  text,
  urlRef,
  voidBlock,
  type Json,
} from './support/gitbook-blocks.js';
import { expectNewestSpecSchema } from './support/spec.js';

const FILES: RenderInput['files'] = {
  f1: {
    url: 'https://docs.test/f/light.png?s=1',
    name: 'light.png',
    size: 2048,
    contentType: 'image/png',
    width: 800,
    height: 600,
  },
  f2: {
    url: 'https://docs.test/f/dark.png?s=2',
    name: 'dark.png',
    size: 1024,
    contentType: 'image/png',
    width: 800,
    height: 600,
  },
  f3: { url: 'https://docs.test/f/guide.pdf?s=3', name: 'guide.pdf', size: 4096, contentType: 'application/pdf' },
};
const PAGES = { '/p1': 'https://docs.test/s/p1' };
const PAGE_TITLES = { '/p1': 'Introduction' };

/** The document's HTML, after checking that the document is one GitBook's newest spec accepts. */
function render(document: Json, extra: Partial<RenderInput> = {}) {
  expectNewestSpecSchema('JSONDocument', document);
  return renderDocument({
    document: document as unknown as JSONDocument,
    pages: PAGES,
    files: FILES,
    pageTitles: PAGE_TITLES,
    ...extra,
  });
}

describe('GitBook’s blocks as the reader’s HTML', () => {
  it('shows images as figures sized from their files, with a dark variant, a caption, alignment and a frame', () => {
    const { html } = render(
      doc(
        images(
          { align: 'left', withFrame: true },
          image(
            { ref: fileRef('f1'), refDark: fileRef('f2'), alt: 'A chart' },
            paragraph(text('The '), text('chart', 'bold')),
          ),
          image({ ref: urlRef('https://example.com/x.png'), width: { unit: '%', value: 50 } }),
        ),
        images({}, image({ ref: fileRef('gone'), alt: 'Lost' })),
      ),
    );
    expect(html).toBe(
      '<div class="images images-left with-frame"><figure>' +
        '<img src="https://docs.test/f/light.png?s=1" alt="A chart" width="800" height="600" loading="lazy" decoding="async" class="image-light">' +
        '<img src="https://docs.test/f/dark.png?s=2" alt="A chart" width="800" height="600" loading="lazy" decoding="async" class="image-dark">' +
        '<figcaption>The <strong>chart</strong></figcaption></figure>' +
        '<figure><img src="https://example.com/x.png" alt="" width="50%" loading="lazy" decoding="async"></figure></div>' +
        '<div class="images images-center"><figure><span class="missing">Lost</span></figure></div>',
    );
  });

  it('shows an inline image with a dark variant as two images, the dark one for the dark theme', () => {
    const { html } = render(
      doc(
        paragraph(
          text('Click '),
          inline('inline-image', { ref: fileRef('f1'), refDark: fileRef('f2'), alt: 'Assistant', size: 'line' }),
          text(' to ask.'),
        ),
      ),
    );
    expect(html).toBe(
      '<p>Click ' +
        '<img src="https://docs.test/f/light.png?s=1" alt="Assistant" width="800" height="600" loading="lazy" decoding="async" class="image-light">' +
        '<img src="https://docs.test/f/dark.png?s=2" alt="Assistant" width="800" height="600" loading="lazy" decoding="async" class="image-dark">' +
        ' to ask.</p>',
    );
  });

  it('gives each expandable GitBook’s id for its title, counted apart from the headings’, as links name it; a heading keeps its own', () => {
    const expandable = (title: string) => ({
      object: 'block',
      type: 'expandable',
      data: {},
      isVoid: true,
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [para(title)] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [para('Body')] },
      ],
    });
    const { html } = render(
      doc(heading(2, 'Admin'), expandable('Admin'), expandable('Admin'), expandable('1. Delete a site')),
    );
    expect([...html.matchAll(/<(h3|details)[^>]* id="([^"]+)"/g)].map((match) => `${match[1]}#${match[2]}`)).toEqual([
      'h3#admin',
      'details#admin-1',
      'details#id-1.-delete-a-site',
    ]);
  });

  it('shows code under its title, wrapped, numbered and folded after its collapsed lines, keeping highlighting', () => {
    const { html } = render(
      doc(
        code(
          { title: 'notes.txt', overflow: 'wrap', lineNumbers: true, expandable: true, collapsedLineCount: 2 },
          'one',
          'two',
          'three',
        ),
        code({ syntax: 'js', lineNumbers: true }, '/* a', 'b */ x'),
        code({ expandable: true }, 'short'),
      ),
    );
    expect(html).toBe(
      '<div class="code-block line-numbers"><div class="code-title">notes.txt</div>' +
        '<details class="code-fold"><summary><span class="fold-more">Show all 3 lines</span><span class="fold-less">Show fewer lines</span></summary></details>' +
        '<pre tabindex="0" class="wrap"><code class="hljs"><span class="line">one\n</span><span class="line">two\n</span><span class="line folded">three</span></code></pre></div>' +
        // A comment over two lines is closed and opened again, so each line stands alone.
        '<div class="code-block line-numbers"><pre tabindex="0"><code class="hljs language-js">' +
        '<span class="line"><span class="hljs-comment">/* a</span>\n</span><span class="line"><span class="hljs-comment">b */</span> x</span></code></pre></div>' +
        '<pre tabindex="0"><code class="hljs">short</code></pre>',
    );
  });

  it('shows a cards table as a grid of linked cards with covers, their text columns as the card', () => {
    const textColumn = (id: string) => ({ id, title: '', type: 'text', textAlignment: 'left' });
    const { html } = render(
      doc(
        table(
          {
            type: 'cards',
            cardSize: 'large',
            columns: ['title', 'body', 'target', 'cover', 'dark'],
            targetDefinition: 'target',
            coverDefinition: 'cover',
            coverDefinitionDark: 'dark',
          },
          {
            title: textColumn('title'),
            body: textColumn('body'),
            target: { id: 'target', title: '', type: 'content-ref' },
            cover: { id: 'cover', title: 'Cover', type: 'image' },
            dark: { id: 'dark', title: 'Cover (dark)', type: 'image' },
          },
          [
            {
              title: 'c1',
              body: 'c2',
              target: pageRef('p1'),
              cover: { ref: fileRef('f1') },
              dark: { ref: fileRef('f2'), objectFit: 'cover', alt: 'Night' },
            },
            { title: 'c3', body: 'c4', target: pageRef('gone') },
          ],
          [
            fragment('c1', heading(3, 'Sites')),
            fragment('c2', paragraph(text('Publish '), link(urlRef('https://x.test/'), 'docs'))),
            fragment('c3', para('Developers')),
            fragment('c4', para('Build'), para('More')),
          ],
        ),
      ),
    );
    expect(html).toBe(
      '<ul class="cards cards-large">' +
        '<li class="card"><a class="card-link" href="https://docs.test/s/p1"><div class="card-cover">' +
        '<img src="https://docs.test/f/light.png?s=1" alt="" width="800" height="600" loading="lazy" decoding="async" class="image-light">' +
        '<img src="https://docs.test/f/dark.png?s=2" alt="Night" width="800" height="600" loading="lazy" decoding="async" class="image-dark">' +
        // Inside the card's link, a heading is the card's title and a link its text.
        '</div><div class="card-body"><div class="card-field"><p class="card-title">Sites</p></div><div class="card-field">Publish docs</div></div></a></li>' +
        '<li class="card"><div class="card-body"><div class="card-field">Developers</div><div class="card-field"><p>Build</p><p>More</p></div></div></li>' +
        '</ul>',
    );
  });

  it('shows a grid table with column widths, merged cells and each column type’s value', () => {
    const { html } = render(
      doc(
        table(
          {
            type: 'grid',
            columns: ['name', 'count', 'done', 'kind', 'link', 'files', 'stars'],
            hideHeader: false,
            columnWidths: { name: 40, count: 10 },
          },
          {
            name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' },
            count: { id: 'count', title: 'Count', type: 'number' },
            done: { id: 'done', title: 'Done', type: 'checkbox' },
            kind: {
              id: 'kind',
              title: 'Kind',
              type: 'select',
              multiple: true,
              options: [
                { value: 'a', label: 'Alpha', color: 'red' },
                { value: 'b', label: 'Beta', color: 'blue' },
              ],
            },
            link: { id: 'link', title: 'Link', type: 'content-ref' },
            files: { id: 'files', title: 'Files', type: 'files' },
            stars: { id: 'stars', title: 'Stars', type: 'rating', max: 5 },
          },
          [
            { name: 'n1', count: 3, done: true, kind: ['a', 'b'], link: pageRef('p1'), files: ['f3'], stars: 4 },
            { name: 'n2', count: 7, done: false, kind: [] },
          ],
          [fragment('n1', para('Ada')), fragment('n2', para('hidden by the merge'))],
          { cellMerges: [{ anchor: { record: 'r0', column: 'name' }, rowSpan: 2, colSpan: 1 }] },
        ),
      ),
    );
    expect(html).toBe(
      '<div class="table-wrapper" tabindex="0"><table>' +
        '<colgroup><col width="40%"><col width="10%"><col><col><col><col><col></colgroup>' +
        '<thead><tr><th scope="col">Name</th><th scope="col">Count</th><th scope="col">Done</th><th scope="col">Kind</th>' +
        '<th scope="col">Link</th><th scope="col">Files</th><th scope="col">Stars</th></tr></thead><tbody>' +
        '<tr><td rowspan="2">Ada</td><td>3</td><td><input type="checkbox" disabled checked aria-label="yes"></td>' +
        '<td><span class="tag">Alpha</span><span class="tag">Beta</span></td><td><a href="https://docs.test/s/p1">Introduction</a></td>' +
        '<td><a class="file" href="https://docs.test/f/guide.pdf?s=3" download="guide.pdf">guide.pdf</a></td>' +
        '<td><span class="rating" role="img" aria-label="4 out of 5">★★★★☆</span></td></tr>' +
        '<tr><td>7</td><td><input type="checkbox" disabled aria-label="no"></td><td></td><td></td><td></td><td></td></tr>' +
        '</tbody></table></div>',
    );
  });

  it('shows a stepper as a numbered list of steps, and columns side by side with their shares', () => {
    const { html } = render(
      doc(
        block('stepper', {}, [
          block('stepper-step', {}, [para('Install it.')]),
          block('stepper-step', {}, [para('Run it.')]),
        ]),
        {
          ...block('columns', {}, [
            block('column', { width: { unit: '%', value: 60 } }, [para('Left')]),
            block('column', { verticalAlignment: 'middle' }, [para('Right')]),
          ]),
          isVoid: false,
        },
      ),
    );
    expect(html).toBe(
      '<ol class="stepper"><li class="step"><p>Install it.</p></li><li class="step"><p>Run it.</p></li></ol>' +
        '<div class="columns"><div class="column share-60"><p>Left</p></div><div class="column share-40 valign-middle"><p>Right</p></div></div>',
    );
  });

  it('shows embeds, content-refs and OpenAPI blocks as link cards, naming the page a content-ref leads to', () => {
    const { html } = render(
      doc(
        voidBlock('embed', { url: 'https://www.youtube.com/watch?v=abc' }),
        voidBlock('content-ref', { ref: pageRef('p1') }),
        voidBlock('content-ref', { ref: urlRef('https://example.com/guide') }),
        voidBlock('content-ref', { ref: pageRef('gone') }),
        voidBlock('openapi-operation', { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pet', method: 'post' }),
        voidBlock('openapi-schemas', { ref: { kind: 'openapi', spec: 'other' }, schemas: ['Pet'] }),
      ),
      { openapiPages: { petstore: 'https://docs.test/s/api' } },
    );
    expect(html).toBe(
      '<div class="embed"><a class="link-card" href="https://www.youtube.com/watch?v=abc"><span class="link-card-title">www.youtube.com</span>' +
        '<span class="link-card-url">https://www.youtube.com/watch?v=abc</span></a></div>' +
        '<div class="content-ref"><a class="link-card" href="https://docs.test/s/p1"><span class="link-card-title">Introduction</span></a></div>' +
        '<div class="content-ref"><a class="link-card" href="https://example.com/guide"><span class="link-card-title">https://example.com/guide</span></a></div>' +
        '<p class="content-ref missing">A page that is not in this site</p>' +
        '<div class="openapi"><a class="link-card" href="https://docs.test/s/api"><span class="link-card-title"><span class="http-method method-post">POST</span> <code>/pet</code></span>' +
        '<span class="link-card-url">From the petstore API reference</span></a></div>' +
        '<div class="openapi"><div class="link-card"><span class="link-card-title">The Pet object</span><span class="link-card-url">From the other API reference</span></div></div>',
    );
  });

  it('shows a drawing as its image, and an integration unfurled from a URL as a link card to it', () => {
    const { html } = render(
      doc(
        voidBlock('drawing', { ref: fileRef('f1') }),
        voidBlock('integration', {
          integration: 'github',
          block: 'repo',
          props: {},
          url: 'https://github.com/acme/app',
        }),
        voidBlock('integration', { integration: 'runkit', block: 'notebook', props: {} }),
      ),
    );
    expect(html).toBe(
      '<div class="images images-center"><figure><img src="https://docs.test/f/light.png?s=1" alt="Drawing" width="800" height="600" loading="lazy" decoding="async"></figure></div>' +
        '<div class="embed"><a class="link-card" href="https://github.com/acme/app"><span class="link-card-title">github.com</span>' +
        '<span class="link-card-url">https://github.com/acme/app</span></a></div>',
    );
  });

  it('shows an included reusable content in place, once deep, and nothing for one it is not given', () => {
    const include = (reusableContent: string) =>
      voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent } });
    const { html } = render(doc(include('rc1'), include('gone')), {
      // An include that includes itself is not followed.
      reusableContents: { rc1: doc(para('Shared words.'), include('rc1')) as unknown as JSONDocument },
    });
    expect(html).toBe('<p>Shared words.</p>');
  });

  it('shows updates as a dated timeline with their tags, in the block’s date format', () => {
    const updates = (format: string) =>
      block('updates', { format }, [
        block('update', { date: '2025-12-25T00:00:00.000Z', tags: [{ kind: 'tag', tag: 'beta' }] }, [para('Shipped.')]),
        block('update', { date: '2025-11-02T00:00:00.000Z' }, [para('Earlier.')]),
      ]);
    expect(render(doc(updates('full'))).html).toBe(
      '<ol class="updates"><li class="update"><div class="update-meta"><time class="update-date" datetime="2025-12-25T00:00:00.000Z">December 25, 2025</time>' +
        '<ul class="update-tags"><li class="tag">beta</li></ul></div><div class="update-body"><p>Shipped.</p></div></li>' +
        '<li class="update"><div class="update-meta"><time class="update-date" datetime="2025-11-02T00:00:00.000Z">November 2, 2025</time></div>' +
        '<div class="update-body"><p>Earlier.</p></div></li></ol>',
    );
    expect(render(doc(updates('short'))).html).toContain('>Dec 25, 2025</time>');
    expect(render(doc(updates('numeric'))).html).toContain('>12/25/2025</time>');
  });

  it('shows hints with an icon as hints, and a prompt as its description and its text to copy', () => {
    const { html } = render(
      doc(
        block('hint', { style: 'success', icon: 'books' }, [para('Good.')]),
        block('prompt', { description: 'Summarize the page' }, [code({}, 'Summarize', 'this page')]),
      ),
    );
    expect(html).toBe(
      '<div class="hint hint-success" role="note" aria-label="Success"><p>Good.</p></div>' +
        '<div class="prompt"><p class="prompt-description">Summarize the page</p><details class="prompt-text"><summary>Prompt</summary>' +
        '<pre tabindex="0"><code>Summarize\nthis page</code></pre></details></div>',
    );
  });

  it('typesets formulas as MathML, and shows one KaTeX refuses as its TeX source', () => {
    const { html } = render(
      doc(
        voidBlock('math', { formula: 'x^2' }),
        paragraph(text('Area '), inline('inline-math', { formula: 'r' })),
        voidBlock('math', { formula: '\\frac{' }),
      ),
    );
    expect(html).toBe(
      '<div class="math-block" tabindex="0"><span class="katex"><math display="block"><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow>' +
        '<annotation encoding="application/x-tex">x^2</annotation></semantics></math></span></div>' +
        '<p>Area <span class="math-inline"><span class="katex"><math><semantics><mrow><mi>r</mi></mrow>' +
        '<annotation encoding="application/x-tex">r</annotation></semantics></math></span></span></p>' +
        '<div class="math-block" tabindex="0"><code class="math">\\frac{</code></div>',
    );
  });

  it('shows an if block as the reader’s conditions decide, and every one, under its condition, without them', () => {
    const document = doc(
      block('if', { expression: 'visitor.claims.unsigned.beta' }, [para('Beta only.')]),
      block('if', { expression: 'visitor.claims.unsigned.other' }, [para('Others.')]),
      block('if', { expression: 'visitor.claims.unknown' }, [para('Never.')]),
    );
    const conditions = { 'visitor.claims.unsigned.beta': true, 'visitor.claims.unsigned.other': false };
    expect(render(document, { conditions }).html).toBe('<p>Beta only.</p>');
    expect(render(document).html).toBe(
      '<div class="conditional"><p class="conditional-label">Shown to visitors when <code>visitor.claims.unsigned.beta</code></p><p>Beta only.</p></div>' +
        '<div class="conditional"><p class="conditional-label">Shown to visitors when <code>visitor.claims.unsigned.other</code></p><p>Others.</p></div>' +
        '<div class="conditional"><p class="conditional-label">Shown to visitors when <code>visitor.claims.unknown</code></p><p>Never.</p></div>',
    );
  });

  it('anchors a heading by its explicit id, and aligns headings and paragraphs', () => {
    const { html, headings } = render(
      doc(heading(2, 'Install the app', { id: 'install', align: 'center' }), heading(2, 'Usage'), {
        ...para('Centred.'),
        data: { align: 'center' },
      }),
    );
    expect(headings).toEqual([
      { id: 'install', title: 'Install the app', depth: 2 },
      { id: 'usage', title: 'Usage', depth: 2 },
    ]);
    expect(html).toBe(
      // The id the title alone would give stays a target too, for links made before.
      '<h3 id="install" class="align-center"><span id="install-the-app"></span>Install the app<a class="anchor" href="#install" aria-label="Link to Install the app">#</a></h3>' +
        '<h3 id="usage">Usage<a class="anchor" href="#usage" aria-label="Link to Usage">#</a></h3>' +
        '<p class="align-center">Centred.</p>',
    );
  });

  it('shows emoji, expressions, keys, superscripts and annotations inline, and leaves icons out', () => {
    const { html } = render(
      doc(
        paragraph(
          text('Go '),
          inline('emoji', { code: '1f680' }),
          inline('icon', { icon: 'globe' }),
          inline('expression', { expression: 'space.vars.version' }),
          text('Ctrl', 'keyboard'),
          text('2', 'superscript'),
          {
            object: 'inline',
            type: 'annotation',
            isVoid: false,
            data: {},
            nodes: [text('term')],
            fragments: [{ object: 'fragment', type: 'annotation-body', nodes: [para('What it means.')] }],
          },
        ),
      ),
    );
    expect(html).toBe(
      '<p>Go 🚀<code class="expression">space.vars.version</code><kbd>Ctrl</kbd><sup>2</sup><span class="annotation" title="What it means.">term</span></p>',
    );
  });

  it('shows a button as a link styled as one, and one that needs script as its label', () => {
    // The spec's button cannot be valid (its `ref` branch allows no other property), so this document is not checked.
    const document = doc(
      paragraph(
        inline('button', { label: 'Start', kind: 'primary', ref: pageRef('p1') }),
        inline('button', { label: 'Ask', kind: 'secondary', size: 'small', action: { action: 'ask' } }),
      ),
    ) as unknown as JSONDocument;
    const { html } = renderDocument({ document, pages: PAGES, files: FILES });
    expect(html).toBe(
      '<p><a href="https://docs.test/s/p1" class="button button-primary">Start</a><span class="button button-secondary button-small">Ask</span></p>',
    );
  });
});
