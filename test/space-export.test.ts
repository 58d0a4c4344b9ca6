import { unzipSync, strFromU8 } from 'fflate';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readRepository } from '../src/git-sync/format/index.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi, outline } from './support/content.js';
import { createImportRunProcessor } from '../src/imports/processor.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

let now = new Date();
const t = useTestApp({ clock: { now: () => new Date(now.getTime()) } });
const api = contentApi(() => t.app);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const GUIDE = [
  '# Guide',
  '',
  'A paragraph with **bold**, _italic_ and `code`.',
  '',
  '## Steps',
  '',
  '1. Install',
  '2. Configure',
  '   * nested bullet',
  '',
  '```js',
  'const answer = 42;',
  '```',
  '',
  '| Name | Value |',
  '| ---- | ----- |',
  '| Alpha | One |',
  '',
  '> A quote.',
  '',
  'Kőbánya, 東京.',
  '',
  '![Logo](logo.png)',
  '',
].join('\n');

/** A space with a group, pages and an image, and a change request with a page of its own. */
async function exportedSpace() {
  const team = await t.factory.team(['read']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Handbook' });
  const { written } = await api.change(team.admin, space.id, [
    {
      operation: 'insert_files',
      files: [{ name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') }],
    },
    { operation: 'insert_page', ref: 'intro', title: 'Introduction', document: { markdown: 'Welcome aboard.\n' } },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: GUIDE } },
    { operation: 'insert_page', into: 'guide', title: 'Advanced Topics', document: { markdown: 'Deep water.\n' } },
  ]);
  const changeRequestId = await api.openChangeRequest(team.admin, space.id, 'Draft');
  const draft = await api.writeContent(team.admin, space.id, changeRequestId, [
    { operation: 'insert_page', title: 'Draft Chapter', document: { markdown: 'Not merged yet.\n' } },
  ]);
  expect(draft.statusCode, draft.body).toBe(200);
  const guideId = (written.changes as Array<{ ref?: string; page: { id: string } }>).find(
    (change) => change.ref === 'guide',
  )!.page.id;
  return { ...team, space, changeRequestId, guideId };
}

const get = (account: Account, url: string) => t.app.inject({ method: 'GET', url, headers: account.headers });

/** Fetches a signed URL of this service, without a token. */
const fetchSigned = (url: string) => t.app.inject({ method: 'GET', url: url.slice(PUBLIC_URL.length) });

/** The text a PDF shows, read back from its (deflated) content streams' hex strings. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  let text = '';
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9a-fA-F]+)>/g)) text += Buffer.from(hex[1]!, 'hex').toString('latin1');
    text += '\n';
  }
  return text;
}

describe('PDF exports', () => {
  it('answers a temporary URL whose PDF holds every page of the space, as the spec says', async () => {
    const { admin, space } = await exportedSpace();
    const answer = await get(admin, `/v1/spaces/${space.id}/pdf`);
    expect(answer.statusCode, answer.body).toBe(200);
    expectNewestSpecResponse('getSpacePDF', 200, answer.json());
    const { url } = answer.json() as { url: string };
    expect(url.startsWith(`${PUBLIC_URL}/exports/${space.id}/`)).toBe(true);

    const pdf = await fetchSigned(url);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const bytes = pdf.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-6).toString('latin1')).toContain('%%EOF');
    const text = pdfText(bytes);
    for (const shown of [
      'Handbook',
      'Introduction',
      'Welcome aboard.',
      'Guide',
      'Advanced Topics',
      'Steps',
      'Install',
    ]) {
      expect(text).toContain(shown);
    }
    expect(text).toContain('const answer = 42;');
    expect(text).toContain('Alpha');
    // The standard fonts have no ő: it loses its accent; they have no Japanese at all.
    expect(text).toContain('Kobánya, ??.');
    // The merged space only: the change request's page is not in it.
    expect(text).not.toContain('Draft Chapter');
    // The image is embedded.
    expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);
    // The same revision's PDF is made once, and served the same.
    expect((await fetchSigned(url)).rawPayload.equals(bytes)).toBe(true);
  });

  it('exports one page, with or without its subpages', async () => {
    const { admin, space, guideId } = await exportedSpace();
    const withSubpages = pdfText(
      (await fetchSigned((await get(admin, `/v1/spaces/${space.id}/pdf?page=${guideId}`)).json().url)).rawPayload,
    );
    expect(withSubpages).toContain('Advanced Topics');
    expect(withSubpages).not.toContain('Introduction');
    const only = pdfText(
      (await fetchSigned((await get(admin, `/v1/spaces/${space.id}/pdf?page=${guideId}&only=true`)).json().url))
        .rawPayload,
    );
    expect(only).toContain('Steps');
    expect(only).not.toContain('Advanced Topics');
    expect((await get(admin, `/v1/spaces/${space.id}/pdf?page=nope`)).statusCode).toBe(404);
  });

  it('exports a change request’s content for the space’s members', async () => {
    const { admin, space, changeRequestId, member } = await exportedSpace();
    const answer = await get(member('read'), `/v1/spaces/${space.id}/change-requests/${changeRequestId}/pdf`);
    expect(answer.statusCode, answer.body).toBe(200);
    expectNewestSpecResponse('getChangeRequestPDF', 200, answer.json());
    const text = pdfText((await fetchSigned(answer.json().url)).rawPayload);
    expect(text).toContain('Draft Chapter');
    expect(text).toContain('Introduction');
    expect((await get(admin, `/v1/spaces/${space.id}/change-requests/nope/pdf`)).statusCode).toBe(404);
  });

  it('refuses a tampered or expired URL, and a space deleted since', async () => {
    const { admin, space } = await exportedSpace();
    const { url } = (await get(admin, `/v1/spaces/${space.id}/pdf`)).json() as { url: string };
    const signed = new URL(url);
    const tampered = new URL(url);
    tampered.searchParams.set('signature', `${signed.searchParams.get('signature')!.slice(0, -2)}AA`);
    expect((await fetchSigned(tampered.href)).statusCode).toBe(404);
    const otherRevision = new URL(url.replace(/\/exports\/(\w+)\/(\w+)\//, '/exports/$1/x$2/'));
    expect((await fetchSigned(otherRevision.href)).statusCode).toBe(404);
    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(signed.searchParams.get('expires')) + 3600));
    expect((await fetchSigned(longer.href)).statusCode).toBe(404);
    const asZip = url.replace('.pdf?', '.zip?');
    expect((await fetchSigned(asZip)).statusCode).toBe(404);
    const anotherPage = new URL(url);
    anotherPage.searchParams.set('page', 'other');
    expect((await fetchSigned(anotherPage.href)).statusCode).toBe(404);

    const realNow = now;
    now = new Date(realNow.getTime() + 3601 * 1000);
    try {
      const expired = await fetchSigned(url);
      expect(expired.statusCode).toBe(404);
      expect(expired.json().error.message).toMatch(/expired/);
    } finally {
      now = realNow;
    }
    expect((await fetchSigned(url)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${space.id}`, headers: admin.headers })).statusCode,
    ).toBe(205);
    expect((await fetchSigned(url)).statusCode).toBe(404);
  });

  it('lets whoever may read the space export it, and no one else', async () => {
    const { admin, space, changeRequestId, organization } = await exportedSpace();
    const stranger = await t.factory.account();
    const other = await t.factory.team();
    expect((await get(stranger, `/v1/spaces/${space.id}/pdf`)).statusCode).toBe(404);
    expect((await get(other.admin, `/v1/spaces/${space.id}/zip`)).statusCode).toBe(404);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: admin.headers,
      payload: { visibility: 'public' },
    });
    // The published side opens to a visitor; change requests stay the members'.
    expect((await get(stranger, `/v1/spaces/${space.id}/pdf`)).statusCode).toBe(200);
    expect((await get(stranger, `/v1/spaces/${space.id}/change-requests/${changeRequestId}/pdf`)).statusCode).toBe(404);
    expect((await get(stranger, `/v1/spaces/${space.id}/change-requests/${changeRequestId}/zip`)).statusCode).toBe(404);
    const readOnlyToken = await t.factory.token(admin.user.id, { scopes: ['organization:read'] });
    expect((await get(readOnlyToken, `/v1/spaces/${space.id}/pdf`)).statusCode).toBe(403);
    expect(organization.id).toEqual(expect.any(String));
  });

  it('works through the official client', async () => {
    const { admin, space, changeRequestId } = await exportedSpace();
    const client = newestOfficialClient(await listen(t.app), admin.token);
    const { data } = await client.spaces.getSpacePdf(space.id);
    expect(data.url.startsWith(`${PUBLIC_URL}/exports/`)).toBe(true);
    const { data: draft } = await client.spaces.getChangeRequestPdf(space.id, changeRequestId);
    expect(draft.url).not.toBe(data.url);
  });
});

describe('zip exports', () => {
  it('zips the space in GitBook’s format, which reads back as the same pages', async () => {
    const { admin, space } = await exportedSpace();
    const answer = await get(admin, `/v1/spaces/${space.id}/zip`);
    expect(answer.statusCode, answer.body).toBe(200);
    const download = await fetchSigned(answer.json().url);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(download.rawPayload));
    expect(Object.keys(files).sort()).toEqual([
      '.gitbook/assets/logo.png',
      'README.md',
      'SUMMARY.md',
      'guide/README.md',
      'guide/advanced-topics.md',
    ]);
    expect(strFromU8(files['SUMMARY.md']!)).toContain('[Advanced Topics](guide/advanced-topics.md)');
    expect(Buffer.from(files['.gitbook/assets/logo.png']!).equals(PNG)).toBe(true);
    const read = readRepository(new Map(Object.entries(files)));
    expect(read.content.entries.map((entry) => entry.title)).toEqual(['Introduction', 'Guide']);
  });

  it('imports back, through a zip import run, as the same pages and files', async () => {
    const { admin, organization, space } = await exportedSpace();
    const zip = (await fetchSigned((await get(admin, `/v1/spaces/${space.id}/zip`)).json().url)).rawPayload;
    const announced = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/storage/upload`,
      headers: admin.headers,
      payload: { file: { name: 'space.zip', type: 'application/zip', size: zip.byteLength }, kind: 'import_file' },
    });
    const { url, key } = announced.json() as { url: string; key: string };
    expect((await t.app.inject({ method: 'PUT', url: url.slice(PUBLIC_URL.length), payload: zip })).statusCode).toBe(
      200,
    );
    const copy = await api.createSpace(admin, organization.id, { title: 'Copy' });
    const started = await t.app.inject({
      method: 'POST',
      url: `/v1/org/${organization.id}/imports`,
      headers: admin.headers,
      payload: { source: { type: 'file', files: [key] }, target: { space: copy.id } },
    });
    expect(started.statusCode, started.body).toBe(201);
    const processor = createImportRunProcessor(t.app.context);
    while (await processor.runNext());
    const treeOf = async (spaceId: string) => {
      const pages = (await api.read(admin, `/v1/spaces/${spaceId}/content/pages`)).json().pages as Array<{
        title: string;
        path: string;
        pages: unknown[];
      }>;
      return outline(pages as never);
    };
    expect(await treeOf(copy.id)).toEqual(await treeOf(space.id));
    const files = (await api.read(admin, `/v1/spaces/${copy.id}/content/files`)).json().items as Array<{
      name: string;
    }>;
    expect(files.map((file) => file.name)).toEqual(['logo.png']);
    const guide = (await api.read(admin, `/v1/spaces/${copy.id}/content/path/guide`, { format: 'markdown' })).json();
    expect(guide.markdown).toContain('const answer = 42;');
  });

  it('zips a change request’s content for members, with its own pages', async () => {
    const { space, changeRequestId, member } = await exportedSpace();
    const answer = await get(member('read'), `/v1/spaces/${space.id}/change-requests/${changeRequestId}/zip`);
    expect(answer.statusCode, answer.body).toBe(200);
    const files = unzipSync(new Uint8Array((await fetchSigned(answer.json().url)).rawPayload));
    expect(strFromU8(files['SUMMARY.md']!)).toContain('Draft Chapter');
  });
});
