import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, type JSONDocument } from '../src/document/index.js';
import { expectNewestSpecSchema, expectSpecSchema } from './support/spec.js';

/**
 * GitBook's `{% … %}` block tags beyond hints, tabs and files, and its math,
 * read into the document model and written back as GitBook writes them. The
 * fixtures are ours, written in the exact forms GitBook's Git Sync writes.
 */

type Json = Record<string, unknown>;

function withoutKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (name, v: unknown) => (name === 'key' ? undefined : v))) as T;
}

/** Blocks in both specs are checked against both; the others (columns, updates, conditions, prompts) against the newest. */
function blocksOf(markdown: string, specs: 'both' | 'newest' = 'both'): Json[] {
  const document = markdownToDocument(markdown);
  expectNewestSpecSchema('JSONDocument', document);
  if (specs === 'both') expectSpecSchema('JSONDocument', document);
  return withoutKeys(document).nodes as unknown as Json[];
}

/** Markdown written as GitBook writes it reads into a document and is written back byte for byte. */
function expectSameMarkdown(markdown: string): void {
  const document = markdownToDocument(markdown);
  expect(documentToMarkdown(document)).toBe(markdown);
  expect(withoutKeys(markdownToDocument(documentToMarkdown(document)))).toEqual(withoutKeys(document));
}

const mark = (type: string) => ({ object: 'mark', type });
const leaf = (text: string, ...marks: string[]) => ({ object: 'leaf', text, marks: marks.map(mark) });
const text = (...leaves: Json[]) => ({ object: 'text', leaves });
const plain = (value: string) => text(leaf(value));
const paragraph = (...nodes: Json[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const para = (value: string) => paragraph(plain(value));
const bold = (value: string) => paragraph(text(leaf(value, 'bold')));
const heading = (level: number, value: string) => ({
  object: 'block',
  type: `heading-${level}`,
  data: {},
  nodes: [plain(value)],
});
const code = (lines: string[], data: Json = {}) => ({
  object: 'block',
  type: 'code',
  data,
  nodes: lines.map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [plain(line)] })),
});
const step = (...nodes: Json[]) => ({ object: 'block', type: 'stepper-step', data: {}, nodes });
const stepper = (...steps: Json[]) => ({ object: 'block', type: 'stepper', data: {}, nodes: steps });
const inlineMath = (formula: string) => ({ object: 'inline', type: 'inline-math', data: { formula }, isVoid: true });

const STEPPER = `{% stepper %}
{% step %}
### Install the app

Download the installer and run it.
{% endstep %}

{% step %}
**Sign in**

Open a terminal and sign in:

\`\`\`bash
quire login
\`\`\`
{% endstep %}
{% endstepper %}
`;

describe('steppers', () => {
  it('are read from {% stepper %} and {% step %} tags into a stepper of steps, valid in both specs', () => {
    expect(blocksOf(STEPPER)).toEqual([
      stepper(
        step(heading(3, 'Install the app'), para('Download the installer and run it.')),
        step(bold('Sign in'), para('Open a terminal and sign in:'), code(['quire login'], { syntax: 'bash' })),
      ),
    ]);
  });

  it('are written back as GitBook writes them', () => {
    expectSameMarkdown(STEPPER);
  });

  it('hold hints and code with options, and an empty step holds an empty paragraph', () => {
    const markdown = `{% stepper %}
{% step %}
{% hint style="warning" %}
Back up first.
{% endhint %}

{% code title="setup.sh" lineNumbers="true" %}
\`\`\`sh
./setup
\`\`\`
{% endcode %}
{% endstep %}

{% step %}
{% endstep %}
{% endstepper %}
`;
    expect(blocksOf(markdown)).toEqual([
      stepper(
        step(
          { object: 'block', type: 'hint', data: { style: 'warning' }, nodes: [para('Back up first.')] },
          code(['./setup'], { syntax: 'sh', title: 'setup.sh', lineNumbers: true }),
        ),
        step(paragraph(plain(''))),
      ),
    ]);
    expectSameMarkdown(markdown);
  });

  it('are unfolded into their content where the spec has no stepper: in a tab, a hint, a list', () => {
    const inner =
      '{% stepper %}\n{% step %}\nFirst\n{% endstep %}\n\n{% step %}\nSecond\n{% endstep %}\n{% endstepper %}';
    const tabs = blocksOf(`{% tabs %}\n{% tab title="T" %}\n${inner}\n{% endtab %}\n{% endtabs %}`);
    expect(tabs).toEqual([
      {
        object: 'block',
        type: 'tabs',
        data: {},
        nodes: [{ object: 'block', type: 'tabs-item', data: { title: 'T' }, nodes: [para('First'), para('Second')] }],
      },
    ]);
    expect(blocksOf(`{% hint style="info" %}\n${inner}\n{% endhint %}`)).toEqual([
      { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [para('First'), para('Second')] },
    ]);
  });

  it('stay text when unclosed, when a step is outside a stepper, or when they hold no step', () => {
    const lines = (...values: string[]) => values.map(para);
    expect(blocksOf('{% stepper %}\n{% step %}\nA\n{% endstep %}')).toEqual(
      lines('{% stepper %}', '{% step %}', 'A', '{% endstep %}'),
    );
    expect(blocksOf('{% step %}\nA\n{% endstep %}')).toEqual(lines('{% step %}', 'A', '{% endstep %}'));
    expect(blocksOf('{% stepper %}\nA\n{% endstepper %}')).toEqual(lines('{% stepper %}', 'A', '{% endstepper %}'));
  });
});

describe('code options', () => {
  it('are read from the {% code %} tag around a fence into the code block’s data', () => {
    const markdown = `{% code title="index.js" overflow="wrap" lineNumbers="true" %}
\`\`\`javascript
import App from './App';
\`\`\`
{% endcode %}
`;
    expect(blocksOf(markdown)).toEqual([
      code(["import App from './App';"], {
        syntax: 'javascript',
        title: 'index.js',
        overflow: 'wrap',
        lineNumbers: true,
      }),
    ]);
    expectSameMarkdown(markdown);
  });

  it('read fullWidth and expandable, ignore attributes they do not know, and write them in GitBook’s order', () => {
    const markdown =
      '{% code expandable="true" theme="dark" fullWidth="false" title="docs.yaml" %}\n```yaml\na: 1\n```\n{% endcode %}';
    expect(blocksOf(markdown)).toEqual([
      code(['a: 1'], { syntax: 'yaml', title: 'docs.yaml', fullWidth: false, expandable: true }),
    ]);
    expect(documentToMarkdown(markdownToDocument(markdown))).toBe(
      '{% code title="docs.yaml" fullWidth="false" expandable="true" %}\n```yaml\na: 1\n```\n{% endcode %}\n',
    );
  });

  it('keep the tag as text when a value cannot be read, and the fence as code', () => {
    const typographic = '{% code title="x.js” %}\n```js\nx\n```\n{% endcode %}';
    expect(blocksOf(typographic)).toEqual([
      para('{% code title="x.js” %}'),
      code(['x'], { syntax: 'js' }),
      para('{% endcode %}'),
    ]);
    const badFlag = '{% code lineNumbers="yes" %}\n```js\nx\n```\n{% endcode %}';
    expect(blocksOf(badFlag)[0]).toEqual(para('{% code lineNumbers="yes" %}'));
    // A tag that wraps no fence, or one never closed, is text too.
    expect(blocksOf('{% code title="a" %}\ntext\n{% endcode %}')).toEqual([
      para('{% code title="a" %}'),
      para('text'),
      para('{% endcode %}'),
    ]);
    expect(blocksOf('{% code title="a" %}\n```\nx\n```')).toEqual([para('{% code title="a" %}'), code(['x'])]);
  });
});

describe('embeds, content references and includes', () => {
  it('read an embed with its URL, alone or with a caption GitBook closes with {% endembed %}', () => {
    const embed = (data: Json) => ({ object: 'block', type: 'embed', data, isVoid: true });
    const url = 'https://www.youtube.com/watch?v=D_uLM5i0Z4c';
    expect(blocksOf(`{% embed url="${url}" %}`)).toEqual([embed({ url })]);
    expect(blocksOf(`{% embed url="${url}" fullWidth="true" %}\nA talk\n{% endembed %}`)).toEqual([
      embed({ url, fullWidth: true }),
    ]);
    expect(blocksOf(`{% embed url="${url}" %}A talk{% endembed %}\n\nafter`)).toEqual([embed({ url }), para('after')]);
    expectSameMarkdown(
      `{% embed url="${url}" %}\n\n{% embed url="https://example.com/a?x=1&y=2" fullWidth="false" %}\n`,
    );
  });

  it('read a content reference as a page or URL reference, from its link, where page paths are resolved', () => {
    const contentRef = (ref: Json) => ({ object: 'block', type: 'content-ref', data: { ref }, isVoid: true });
    expect(
      blocksOf(
        '{% content-ref url="../formatting/inline.md" %}\n[inline.md](../formatting/inline.md)\n{% endcontent-ref %}',
      ),
    ).toEqual([contentRef({ kind: 'url', url: '../formatting/inline.md' })]);
    expect(blocksOf('{% content-ref url="setup.md" %}\n[setup.md](/pages/p1)\n{% endcontent-ref %}')).toEqual([
      contentRef({ kind: 'page', page: 'p1' }),
    ]);
    expect(blocksOf('{% content-ref url="/pages/p2#install" %}\n{% endcontent-ref %}')).toEqual([
      contentRef({ kind: 'anchor', anchor: 'install', page: 'p2' }),
    ]);
    expectSameMarkdown('{% content-ref url="/pages/p1" %}\n[/pages/p1](/pages/p1)\n{% endcontent-ref %}\n');
    // Never closed: text, and its link a link.
    expect(blocksOf('{% content-ref url="a.md" %}\n[a.md](a.md)')[0]).toEqual(para('{% content-ref url="a.md" %}'));
  });

  it('read an include of a reusable content of the space; a Git Sync path stays text', () => {
    expect(blocksOf('{% include "/reusable-contents/rc1" %}')).toEqual([
      {
        object: 'block',
        type: 'reusable-content',
        data: { ref: { kind: 'reusable-content', reusableContent: 'rc1' } },
        isVoid: true,
      },
    ]);
    expectSameMarkdown('{% include "/reusable-contents/rc1" %}\n');
    expect(blocksOf('{% include "../.gitbook/includes/banner.md" %}')).toEqual([
      para('{% include "../.gitbook/includes/banner.md" %}'),
    ]);
  });
});

describe('columns', () => {
  const markdown = `{% columns %}
{% column width="50%" %}
**Create a seamless experience**

Integrate your docs.
{% endcolumn %}

{% column valign="middle" %}
![A screenshot](/files/img1)
{% endcolumn %}
{% endcolumns %}
`;

  it('are read into columns of columns with their width and alignment (newest spec)', () => {
    expect(blocksOf(markdown, 'newest')).toEqual([
      {
        object: 'block',
        type: 'columns',
        data: {},
        isVoid: false,
        nodes: [
          {
            object: 'block',
            type: 'column',
            data: { width: { unit: '%', value: 50 } },
            nodes: [bold('Create a seamless experience'), para('Integrate your docs.')],
          },
          {
            object: 'block',
            type: 'column',
            data: { verticalAlignment: 'middle' },
            nodes: [
              {
                object: 'block',
                type: 'images',
                data: {},
                isVoid: false,
                nodes: [
                  {
                    object: 'block',
                    type: 'image',
                    data: { ref: { kind: 'file', file: 'img1' }, alt: 'A screenshot' },
                    fragments: [],
                    isVoid: true,
                  },
                ],
              },
            ],
          },
        ],
      },
    ]);
  });

  it('are written back as GitBook writes them', () => {
    expectSameMarkdown(markdown);
  });

  it('keep a column of an unreadable width as text: a line of the paragraph it is in', () => {
    expect(
      blocksOf('{% columns %}\n{% column width="half" %}\nA\n{% endcolumn %}\n{% endcolumns %}', 'newest'),
    ).toEqual(['{% columns %}', '{% column width="half" %} A', '{% endcolumn %}', '{% endcolumns %}'].map(para));
  });
});

describe('cards in a step', () => {
  it('become a paragraph per card, each card’s title a link to its target, as a step holds no table', () => {
    const markdown =
      '{% stepper %}\n{% step %}\n<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead>' +
      '<tbody><tr><td><strong>Script tag</strong></td><td>Drop it in</td><td><a href="https://x.test/script">script.md</a></td></tr>' +
      '<tr><td><strong>NPM</strong></td><td>Install it</td><td></td></tr></tbody></table>\n{% endstep %}\n{% endstepper %}';
    expect(documentToMarkdown(markdownToDocument(markdown))).toBe(
      '{% stepper %}\n{% step %}\n[Script tag](https://x.test/script) | Drop it in\n\n**NPM** | Install it\n{% endstep %}\n{% endstepper %}\n',
    );
    blocksOf(markdown);
  });
  it('link the first cell holding text, after a cell holding only an icon', () => {
    const markdown =
      '{% stepper %}\n{% step %}\n<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead>' +
      '<tbody><tr><td><i class="fa-code">:code:</i></td><td><strong>Script tag</strong></td><td><a href="https://x.test/script">script.md</a></td></tr></tbody></table>\n{% endstep %}\n{% endstepper %}';
    expect(documentToMarkdown(markdownToDocument(markdown))).toBe(
      '{% stepper %}\n{% step %}\n<i class="fa-code">:code:</i> | [Script tag](https://x.test/script)\n{% endstep %}\n{% endstepper %}\n',
    );
    blocksOf(markdown);
  });
});

describe('tags right after an HTML block', () => {
  it('close what they close: the HTML block runs to a blank line, and the tag lines in it are taken out', () => {
    const markdown =
      '{% columns %}\n{% column %}\n<figure><img src="https://x.test/a.png" alt="Icons"><figcaption></figcaption></figure>\n' +
      '{% endcolumn %}\n{% endcolumns %}\n\nAfter.';
    const [columns, after] = blocksOf(markdown, 'newest') as Array<{ type: string; nodes: Json[] }>;
    expect(columns!.type).toBe('columns');
    expect(
      columns!.nodes.map((column) => (column.nodes as Array<{ type: string }>).map((block) => block.type)),
    ).toEqual([['images']]);
    expect(after).toEqual(para('After.'));
  });

  it('stay in the HTML when the line only looks like a tag', () => {
    expect(blocksOf('<div>\n{% not-a-tag %}\n</div>')).toEqual([
      code(['<div>', '{% not-a-tag %}', '</div>'], { syntax: 'html' }),
    ]);
  });
});

describe('updates', () => {
  const markdown = `{% updates format="full" %}
{% update date="2025-12-25" tags="beta,api" %}
## A brand new update

Faster builds.
{% endupdate %}

{% update date="2025-11-02" %}
Fixes.
{% endupdate %}
{% endupdates %}
`;

  it('are read into updates of dated, tagged entries (newest spec)', () => {
    expect(blocksOf(markdown, 'newest')).toEqual([
      {
        object: 'block',
        type: 'updates',
        data: { format: 'full' },
        nodes: [
          {
            object: 'block',
            type: 'update',
            data: {
              date: '2025-12-25T00:00:00.000Z',
              tags: [
                { kind: 'tag', tag: 'beta' },
                { kind: 'tag', tag: 'api' },
              ],
            },
            nodes: [heading(2, 'A brand new update'), para('Faster builds.')],
          },
          { object: 'block', type: 'update', data: { date: '2025-11-02T00:00:00.000Z' }, nodes: [para('Fixes.')] },
        ],
      },
    ]);
    expectSameMarkdown(markdown);
  });

  it('keep an update of no real day as text', () => {
    const blocks = blocksOf(
      '{% updates %}\n{% update date="2025-02-30" %}\nA\n{% endupdate %}\n{% endupdates %}',
      'newest',
    );
    expect(blocks).toEqual(
      ['{% updates %}', '{% update date="2025-02-30" %} A', '{% endupdate %}', '{% endupdates %}'].map(para),
    );
  });

  it('refuse a written update whose date is no date', () => {
    const sent = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'updates',
          data: { format: 'full' },
          nodes: [{ object: 'block', type: 'update', data: { date: 'soon' }, nodes: [para('x')] }],
        },
      ],
    } as unknown as JSONDocument;
    expect(() => documentToMarkdown(sent)).toThrow('document.nodes[0].nodes[0].data.date must be a date-time');
  });
});

describe('conditional content', () => {
  it('is read into an if block holding its condition as written (newest spec)', () => {
    const markdown = `{% if visitor.claims.unsigned.example_attribute_A %}
This block is only visible to users **with** attribute A.
{% endif %}

{% if !visitor.claims.unsigned.bucket.IF_BLOCK === true %}
{% stepper %}
{% step %}
Inside.
{% endstep %}
{% endstepper %}
{% endif %}
`;
    expect(blocksOf(markdown, 'newest')).toEqual([
      {
        object: 'block',
        type: 'if',
        data: { expression: 'visitor.claims.unsigned.example_attribute_A' },
        nodes: [
          paragraph(text(leaf('This block is only visible to users '), leaf('with', 'bold'), leaf(' attribute A.'))),
        ],
      },
      {
        object: 'block',
        type: 'if',
        data: { expression: '!visitor.claims.unsigned.bucket.IF_BLOCK === true' },
        nodes: [stepper(step(para('Inside.')))],
      },
    ]);
    expectSameMarkdown(markdown);
  });

  it('keeps a condition the service cannot parse as it was written', () => {
    const [block] = blocksOf('{% if visitor.claims.( && %}\nx\n{% endif %}', 'newest');
    expect(block).toMatchObject({ type: 'if', data: { expression: 'visitor.claims.( &&' } });
    // With no condition it is no tag: a line of its paragraph.
    expect(blocksOf('{% if %}\nx\n{% endif %}')).toEqual(['{% if %} x', '{% endif %}'].map(para));
  });
});

describe('OpenAPI blocks', () => {
  it('read {% openapi src %} as the swagger block of an operation, its document from the link', () => {
    const url = 'https://petstore3.swagger.io/api/v3/openapi.json';
    const markdown = `{% openapi src="${url}" path="/pet" method="post" %}\n[${url}](${url})\n{% endopenapi %}\n`;
    expect(blocksOf(markdown)).toEqual([
      {
        object: 'block',
        type: 'swagger',
        data: { ref: { kind: 'url', url }, path: '/pet', method: 'post' },
        isVoid: true,
      },
    ]);
    expectSameMarkdown(markdown);
  });

  it('read operations and schemas of a specification of the organization', () => {
    const markdown = `{% openapi-operation spec="petstore" path="/pet/{petId}" method="get" %}
OpenAPI petstore
{% endopenapi-operation %}

{% openapi-schemas spec="petstore" schemas="Pet" grouped="false" %}
The Pet object
{% endopenapi-schemas %}
`;
    const ref = { kind: 'openapi', spec: 'petstore' };
    expect(blocksOf(markdown)).toEqual([
      { object: 'block', type: 'openapi-operation', data: { ref, path: '/pet/{petId}', method: 'get' }, isVoid: true },
      { object: 'block', type: 'openapi-schemas', data: { ref, schemas: ['Pet'], grouped: false }, isVoid: true },
    ]);
    expectSameMarkdown(markdown);
  });
});

describe('prompts', () => {
  const markdown = `{% prompt description="Example prompt" icon="rectangle-terminal" defaultExpanded="full" %}
\`\`\`markdown
Summarize the key changes in this release note.
\`\`\`
{% endprompt %}
`;

  it('are read into a prompt holding its one code block (newest spec)', () => {
    expect(blocksOf(markdown, 'newest')).toEqual([
      {
        object: 'block',
        type: 'prompt',
        data: { description: 'Example prompt', icon: 'rectangle-terminal', defaultExpanded: 'full' },
        nodes: [code(['Summarize the key changes in this release note.'], { syntax: 'markdown' })],
      },
    ]);
    expectSameMarkdown(markdown);
  });

  it('stay text when a value is closed by a typographic quote, as GitBook sometimes writes', () => {
    const blocks = blocksOf(markdown.replace('defaultExpanded="full"', 'defaultExpanded="full”'));
    expect(blocks[0]).toEqual(
      para('{% prompt description="Example prompt" icon="rectangle-terminal" defaultExpanded="full” %}'),
    );
    expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'code', 'paragraph']);
  });
});

describe('hint and tab icons', () => {
  it('are read into the hint’s and the tab’s data and written back', () => {
    const markdown = `{% hint style="info" icon="books" %}
Read the guide.
{% endhint %}

{% tabs %}
{% tab title="macOS" icon="apple" %}
Use the installer.
{% endtab %}
{% endtabs %}
`;
    expect(blocksOf(markdown)).toEqual([
      { object: 'block', type: 'hint', data: { style: 'info', icon: 'books' }, nodes: [para('Read the guide.')] },
      {
        object: 'block',
        type: 'tabs',
        data: {},
        nodes: [
          {
            object: 'block',
            type: 'tabs-item',
            data: { title: 'macOS', icon: 'apple' },
            nodes: [para('Use the installer.')],
          },
        ],
      },
    ]);
    expectSameMarkdown(markdown);
  });
});

describe('math', () => {
  it('reads $$ fences on lines of their own as a math block and $$…$$ in text as inline math', () => {
    const markdown = `$$
s = \\sqrt{\\frac{1}{N-1}}
$$

A formula $$f(x) = x * e^{2 \\pi i}$$ inline.
`;
    expect(blocksOf(markdown)).toEqual([
      { object: 'block', type: 'math', data: { formula: 's = \\sqrt{\\frac{1}{N-1}}' }, isVoid: true },
      paragraph(plain('A formula '), inlineMath('f(x) = x * e^{2 \\pi i}'), plain(' inline.')),
    ]);
    expectSameMarkdown(markdown);
  });

  it('leaves single dollars as text: prices', () => {
    expect(blocksOf('It costs $10, or $20 a year.')).toEqual([para('It costs $10, or $20 a year.')]);
    expectSameMarkdown('It costs $10, or $20 a year.\n');
  });

  it('becomes inline math where the spec has no math block: in a quote', () => {
    expect(blocksOf('> $$\n> x^2\n> $$')).toEqual([
      { object: 'block', type: 'blockquote', data: {}, nodes: [paragraph(plain(''), inlineMath('x^2'), plain(''))] },
    ]);
  });
});
