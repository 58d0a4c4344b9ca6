import { defaultSchema, type Schema } from 'hast-util-sanitize';

type Attributes = NonNullable<Schema['attributes']>;

/** GitHub's attributes without their per-element class lists (`language-*` on code only…): classes are the renderer's. */
function withoutClassLists(attributes: Attributes): Attributes {
  return Object.fromEntries(
    Object.entries(attributes).map(([tag, list]) => [
      tag,
      list.filter((entry) => !(Array.isArray(entry) && entry[0] === 'className')),
    ]),
  );
}

const BASE_ATTRIBUTES = withoutClassLists(defaultSchema.attributes ?? {});

/** The MathML elements KaTeX writes: presentation markup only, nothing that links or loads. */
const MATHML_TAGS = [
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mtable',
  'mtr',
  'mtd',
  'mlabeledtr',
  'mstyle',
  'mpadded',
  'mphantom',
  'menclose',
];
/** Their presentation attributes (sizes, spacing, variants): none takes a URL or a script. */
const MATHML_ATTRIBUTES = [
  'display',
  'displaystyle',
  'scriptlevel',
  'mathvariant',
  'mathsize',
  'mathcolor',
  'mathbackground',
  'stretchy',
  'fence',
  'separator',
  'lspace',
  'rspace',
  'accent',
  'accentunder',
  'largeop',
  'movablelimits',
  'symmetric',
  'minsize',
  'maxsize',
  'linethickness',
  'columnalign',
  'rowalign',
  'columnspacing',
  'rowspacing',
  'columnlines',
  'rowlines',
  'frame',
  'framespacing',
  'notation',
  'width',
  'height',
  'depth',
  'voffset',
  'encoding',
];

/**
 * What the reader lets through into a page's content: GitHub's schema (no
 * script, no style, no event handler, URLs of safe schemes only) with the
 * classes, ids and controls the renderer itself writes (heading anchors,
 * highlighted code, hints, tabs, cards, figures, dates) and KaTeX's MathML.
 * Ids are the renderer's own slugs, so they are not prefixed: links to
 * `#installation` keep working.
 */
export const READER_SANITIZE_SCHEMA: Schema = {
  ...defaultSchema,
  clobber: [],
  tagNames: [
    ...(defaultSchema.tagNames ?? []),
    'figure',
    'figcaption',
    'label',
    'section',
    'span',
    'time',
    'colgroup',
    'col',
    ...MATHML_TAGS,
  ],
  attributes: {
    ...BASE_ATTRIBUTES,
    '*': [...(BASE_ATTRIBUTES['*'] ?? []), 'className', 'id', 'role', 'ariaLabel', 'tabIndex'],
    a: [...(BASE_ATTRIBUTES.a ?? []), 'download'],
    img: [...(BASE_ATTRIBUTES.img ?? []), 'loading', 'decoding'],
    input: ['type', 'name', 'checked', 'disabled'],
    label: ['htmlFor'],
    ol: [...(BASE_ATTRIBUTES.ol ?? []), 'start'],
    th: [...(BASE_ATTRIBUTES.th ?? []), 'scope'],
    ...Object.fromEntries(MATHML_TAGS.map((tag) => [tag, MATHML_ATTRIBUTES])),
  },
  protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto', 'tel'] },
  // The renderer writes task boxes (disabled checkboxes) and tab switches (radio buttons): nothing else is an input.
  required: {},
};
