import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { contentApi } from './content.js';
import type { Account } from './factory.js';
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
  pageRef,
  para,
  paragraph,
  table,
  text,
  voidBlock,
} from './gitbook-blocks.js';
import { expectNewestSpecSchema } from './spec.js';

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** A page holding one of each of GitBook's blocks the reader shows, pointing at `files`, the `guide` page and a reusable content. */
export function everyBlock(files: { light: string; dark: string }, guide: string, reusableContent: string) {
  const cardText = (id: string) => ({ id, title: '', type: 'text', textAlignment: 'left' });
  return doc(
    heading(2, 'Overview', { id: 'overview-anchor' }),
    images(
      { align: 'center' },
      image({ ref: fileRef(files.light), refDark: fileRef(files.dark), alt: 'A diagram' }, para('The diagram')),
    ),
    code({ title: 'install.sh', syntax: 'bash', lineNumbers: true }, 'npm install quire'),
    table(
      {
        type: 'cards',
        cardSize: 'medium',
        columns: ['title', 'target', 'cover'],
        targetDefinition: 'target',
        coverDefinition: 'cover',
      },
      {
        title: cardText('title'),
        target: { id: 'target', title: '', type: 'content-ref' },
        cover: { id: 'cover', title: '', type: 'image' },
      },
      [{ title: 'c1', target: pageRef(guide), cover: { ref: fileRef(files.light) } }],
      [fragment('c1', para('Read the guide'))],
    ),
    block('stepper', {}, [
      block('stepper-step', {}, [para('First step.')]),
      block('stepper-step', {}, [para('Second step.')]),
    ]),
    {
      ...block('columns', {}, [
        block('column', { width: { unit: '%', value: 50 } }, [para('Left column.')]),
        block('column', { width: { unit: '%', value: 50 } }, [para('Right column.')]),
      ]),
      isVoid: false,
    },
    voidBlock('embed', { url: 'https://www.youtube.com/watch?v=abc' }),
    voidBlock('content-ref', { ref: pageRef(guide) }),
    block('updates', { format: 'full' }, [block('update', { date: '2025-12-25T00:00:00.000Z' }, [para('Released.')])]),
    block('hint', { style: 'info', icon: 'books' }, [para('A hint.')]),
    block('prompt', { description: 'Ask the assistant' }, [code({}, 'Explain this page')]),
    voidBlock('math', { formula: 'x^2' }),
    paragraph(text('Inline '), inline('inline-math', { formula: 'y' }), text('.')),
    block('if', { expression: 'visitor.claims.unsigned.beta == true' }, [para('Only for beta testers.')]),
    voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent } }),
  );
}

/**
 * A public site with adaptive content (an unsigned `beta` claim), whose one
 * space holds a guide and a page of every block, written as a JSON document.
 */
export async function publishEveryBlockSite(app: FastifyInstance, admin: Account, organizationId: string) {
  const api = contentApi(() => app);
  const call = async (method: 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) => {
    const res = await app.inject({ method, url: `/v1${url}`, headers: admin.headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as Record<string, unknown>;
  };
  const space = await api.createSpace(admin, organizationId, { title: 'Blocks' });
  const { written } = await api.change(admin, space.id, [
    {
      operation: 'insert_files',
      files: [
        { name: 'light.png', contentType: 'image/png', base64: PNG.toString('base64') },
        {
          name: 'dark.png',
          contentType: 'image/png',
          base64: Buffer.concat([PNG, Buffer.from([0])]).toString('base64'),
        },
      ],
    },
    { operation: 'insert_page', title: 'Guide', document: { markdown: 'The guide.' } },
  ]);
  const [light, dark] = (written as { insertedFiles: Array<{ id: string }> }).insertedFiles;
  const pages = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages as Array<{ id: string }>;
  const guide = pages[0]!.id;
  // A reusable content that links to the guide: the page includes it, and its link is resolved with the page's.
  const snippet = await api.change(admin, space.id, [
    {
      operation: 'insert_reusable_content',
      title: 'Snippet',
      document: { markdown: `Shared: see [the guide](/pages/${guide}).` },
    },
  ]);
  const reusable = (snippet.written as { insertedReusableContents: Array<{ id: string }> })
    .insertedReusableContents[0]!;
  const document = everyBlock({ light: light!.id, dark: dark!.id }, guide, reusable.id);
  expectNewestSpecSchema('JSONDocument', document);
  await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Every block', document: { document } }]);

  const org = `/orgs/${organizationId}`;
  const site = (await call('POST', `${org}/sites`, { title: 'Blocks' })) as { id: string };
  await call('PUT', `${org}/sites/${site.id}/adaptive-schema`, {
    jsonSchema: {
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { beta: { type: 'boolean', description: 'Tries beta features' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  });
  await call('PATCH', `${org}/sites/${site.id}`, { adaptiveContent: { enabled: true } });
  const siteSpace = (await call('POST', `${org}/sites/${site.id}/site-spaces`, { spaceId: space.id })) as {
    path: string;
  };
  await call('POST', `${org}/sites/${site.id}/publish`);
  return { site, spaceId: space.id, pageUrl: `/s/${site.id}/${siteSpace.path}/every-block` };
}
