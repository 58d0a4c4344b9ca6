import { describe, expect, it } from 'vitest';
import type { JSONDocument } from '../src/document/types.js';
import { documentReferences } from '../src/reader/references.js';
import {
  block,
  doc,
  fileRef,
  fragment,
  image,
  images,
  inline,
  link,
  pageRef,
  para,
  paragraph,
  table,
  voidBlock,
} from './support/gitbook-blocks.js';
import { expectNewestSpecSchema } from './support/spec.js';

describe('what a document refers to, for the reader to resolve', () => {
  it('finds links, dark images, card targets and covers, file columns, content-refs, specs, conditions and includes', () => {
    const document = doc(
      paragraph(link({ kind: 'anchor', anchor: 'setup', page: 'p1', space: 's2' }, 'setup')),
      images({}, image({ ref: fileRef('light'), refDark: fileRef('dark') })),
      table(
        { type: 'cards', cardSize: 'medium', columns: ['t'], targetDefinition: 'to', coverDefinition: 'cover' },
        {
          t: { id: 't', title: '', type: 'text', textAlignment: 'left' },
          to: { id: 'to', title: '', type: 'content-ref' },
          cover: { id: 'cover', title: '', type: 'image' },
          files: { id: 'files', title: '', type: 'files' },
          kind: { id: 'kind', title: '', type: 'select', multiple: true, options: [] },
        },
        [{ t: 'f', to: pageRef('p2'), cover: { ref: fileRef('cover') }, files: ['doc'], kind: ['not-a-file'] }],
        [fragment('f', paragraph(inline('mention', { ref: pageRef('p3') })))],
      ),
      voidBlock('content-ref', { ref: pageRef('p4') }),
      voidBlock('openapi-operation', { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pet', method: 'get' }),
      block('if', { expression: 'visitor.claims.unsigned.beta' }, [para('Beta.')]),
      // Another space's reusable content is not included.
      voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'rc1' } }),
      voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'rc2', space: 'other' } }),
    );
    expectNewestSpecSchema('JSONDocument', document);
    const found = documentReferences(document as unknown as JSONDocument);
    expect({
      ...found,
      pages: found.pages.sort((a, b) => a.page.localeCompare(b.page)),
      files: found.files.sort(),
    }).toEqual({
      pages: [{ page: 'p1', space: 's2' }, { page: 'p2' }, { page: 'p3' }, { page: 'p4' }],
      files: ['cover', 'dark', 'doc', 'light'],
      conditions: ['visitor.claims.unsigned.beta'],
      specs: ['petstore'],
      reusableContents: ['rc1'],
    });
  });
});
