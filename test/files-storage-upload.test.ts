import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';

const LIMIT = 3 * 1024 * 1024;
const t = useTestApp({ config: { storageUploadMaxBytes: LIMIT } });
const api = contentApi(() => t.app);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const announce = (account: Account | null, organizationId: string, file: object, kind = 'organization_file') =>
  t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organizationId}/storage/upload`,
    ...(account ? { headers: account.headers } : {}),
    payload: { file, kind },
  });

/** The PUT to an upload URL, by its path on this service. */
const put = (url: string, body: Buffer | Readable, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'PUT',
    url: url.slice(PUBLIC_URL.length),
    headers: { 'content-type': 'application/octet-stream', ...headers },
    payload: body,
  });

async function uploadRows(organizationId: string) {
  return t.db
    .selectFrom('storage_uploads')
    .select(['id', 'sha256', 'size', 'uploaded_at'])
    .where('organization_id', '=', organizationId)
    .execute();
}

const parts = async () =>
  Number(
    (
      await t.db
        .selectFrom('storage_upload_parts')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function blobExists(sha256: string) {
  return (
    (await t.db.selectFrom('blobs').select('sha256').where('sha256', '=', sha256).executeTakeFirst()) !== undefined
  );
}

describe('uploads to the organization’s storage (generateStorageUploadURL)', () => {
  it('take a file too large to send inline, streamed in parts, then a write makes it a file of a space', async () => {
    const team = await t.factory.team(['edit']);
    const editor = team.member('edit');
    const bytes = randomBytes(Math.floor(2.5 * 1024 * 1024));
    const announced = await announce(editor, team.organization.id, {
      name: 'dataset (v2).bin',
      type: 'application/octet-stream',
      size: bytes.length,
    });
    expect(announced.statusCode, announced.body).toBe(201);
    expectNewestSpecResponse('generateStorageUploadURL', 201, announced.json());
    const { url, key } = announced.json() as { url: string; key: string };
    expect(url.startsWith(`${PUBLIC_URL}/storage/uploads/${key}?signature=`)).toBe(true);

    // Sent in chunks without a length, as a stream is.
    const chunks = Array.from({ length: 10 }, (_, i) => bytes.subarray(i * 262_144, (i + 1) * 262_144));
    const sent = await put(url, Readable.from(chunks));
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({
      object: 'storage-upload',
      key,
      name: 'dataset (v2).bin',
      contentType: 'application/octet-stream',
      size: bytes.length,
    });
    expect(await parts()).toBe(0);

    const space = await api.createSpace(team.admin, team.organization.id, { title: 'Data' });
    const cr = await api.openChangeRequest(editor, space.id);
    const written = await api.writeContent(
      editor,
      space.id,
      cr,
      [
        { operation: 'insert_files', files: [{ name: 'dataset (v2).bin', url }] },
        {
          operation: 'insert_page',
          title: 'Data',
          document: { markdown: '[Get it](<.gitbook/assets/dataset (v2).bin>)' },
        },
      ],
      { compat: 'false' },
    );
    expect(written.statusCode, written.body).toBe(200);
    const file = written.json().insertedFiles[0];
    expect(file).toMatchObject({
      name: 'dataset (v2).bin',
      contentType: 'application/octet-stream',
      size: bytes.length,
    });
    const read = await api.read(editor, `/v1/spaces/${space.id}/change-requests/${cr}/content/files/${file.id}`);
    expectSpecResponse('getFileInChangeRequestById', 200, read.json());
    const download = await t.app.inject({ method: 'GET', url: read.json().downloadURL.slice(PUBLIC_URL.length) });
    expect(download.statusCode).toBe(200);
    expect(createHash('sha256').update(download.rawPayload).digest('hex')).toBe(
      createHash('sha256').update(bytes).digest('hex'),
    );
    const page = await api.read(
      editor,
      `/v1/spaces/${space.id}/change-requests/${cr}/content/page/${written.json().changes[0].page.id}`,
      { format: 'markdown' },
    );
    expect(page.json().markdown).toBe(`[Get it](/files/${file.id})`);
  });

  it('reads an image’s type and size from its bytes when it is announced as bytes', async () => {
    const { admin, organization } = await t.factory.team();
    const announced = await announce(admin, organization.id, {
      name: 'pixel',
      type: 'application/octet-stream',
      size: PNG.length,
    });
    const sent = await put(announced.json().url, PNG);
    expect(sent.json()).toMatchObject({ contentType: 'image/png', size: PNG.length });
    const space = await api.createSpace(admin, organization.id);
    const cr = await api.openChangeRequest(admin, space.id);
    const written = await api.writeContent(
      admin,
      space.id,
      cr,
      [{ operation: 'insert_files', files: [{ name: 'pixel.png', url: announced.json().url }] }],
      { compat: 'false' },
    );
    expect(written.json().insertedFiles[0]).toMatchObject({
      contentType: 'image/png',
      dimensions: { width: 1, height: 1 },
    });
  });

  it('refuses callers without a token (401), without the edit role (403) and outside the organization (404)', async () => {
    const team = await t.factory.team(['read', null]);
    const stranger = await t.factory.account();
    const file = { name: 'a.png', type: 'image/png', size: 10 };
    expect((await announce(null, team.organization.id, file)).statusCode).toBe(401);
    expect((await announce(team.member('read'), team.organization.id, file)).statusCode).toBe(403);
    expect((await announce(team.member(null), team.organization.id, file)).statusCode).toBe(403);
    expect((await announce(stranger, team.organization.id, file)).statusCode).toBe(404);
    expect((await announce(team.admin, 'no-such-organization', file)).statusCode).toBe(404);
    const narrow = await t.factory.token(team.admin.user.id, { scopes: ['space:read'] });
    expect((await announce(narrow, team.organization.id, file)).statusCode).toBe(403);
    expect((await announce(team.admin, team.organization.id, { ...file, size: -1 })).statusCode).toBe(400);
    expect((await announce(team.admin, team.organization.id, file, 'avatar')).statusCode).toBe(400);
    expect(await uploadRows(team.organization.id)).toEqual([]);
  });

  it('answers 413 past the limit or the announced size, and stores nothing of a refused upload', async () => {
    const { admin, organization } = await t.factory.team();
    const over = await announce(admin, organization.id, {
      name: 'big.bin',
      type: 'application/octet-stream',
      size: LIMIT + 1,
    });
    expect(over.statusCode).toBe(413);
    expect(over.json().error.message).toContain(
      `over the ${LIMIT}-byte limit of one upload (STORAGE_UPLOAD_MAX_BYTES)`,
    );
    expect(await uploadRows(organization.id)).toEqual([]);

    const announced = (
      await announce(admin, organization.id, { name: 'x.bin', type: 'application/octet-stream', size: 1000 })
    ).json();
    // A length over the announced size is refused before a byte is read.
    const declared = await put(announced.url, Buffer.alloc(1001));
    expect(declared.statusCode).toBe(413);
    // Without a length, the stream is cut where it passes the announced size.
    const streamed = await put(announced.url, Readable.from([Buffer.alloc(600), Buffer.alloc(600)]));
    expect(streamed.statusCode).toBe(413);
    const short = await put(announced.url, Buffer.alloc(999));
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toBe('The body ended after 999 of the 1000 bytes announced');
    expect(await parts()).toBe(0);
    const [row] = await uploadRows(organization.id);
    expect(row).toMatchObject({ sha256: null, size: null, uploaded_at: null });
    expect(await blobExists(createHash('sha256').update(Buffer.alloc(999)).digest('hex'))).toBe(false);

    // Then the right bytes complete it, once.
    expect((await put(announced.url, Buffer.alloc(1000, 7))).statusCode).toBe(200);
    expect((await put(announced.url, Buffer.alloc(1000, 7))).statusCode).toBe(409);
  });

  it('answers 413 on a real connection while the client is still sending, and closes it', async () => {
    const { admin, organization } = await t.factory.team();
    const announced = (
      await announce(admin, organization.id, { name: 'big.bin', type: 'application/octet-stream', size: 2048 })
    ).json();
    const base = await listen(t.app);
    const target = new URL(announced.url.slice(PUBLIC_URL.length), base);
    const answer = await new Promise<{ status: number; connection: string | undefined; body: string }>(
      (resolve, reject) => {
        const sending = request(target, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' } });
        sending.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
        });
        sending.on('error', reject);
        // Chunked, without a length: the refusal comes from counting what arrives.
        sending.write(Buffer.alloc(4096));
      },
    );
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe('close');
    expect(JSON.parse(answer.body).error.message).toContain('more than the 2048 bytes announced');
    expect(await parts()).toBe(0);
  });

  it('refuses a URL with a wrong signature (404), and an upload of another organization in a write (400)', async () => {
    const mine = await t.factory.team();
    const theirs = await t.factory.team();
    const announced = (
      await announce(theirs.admin, theirs.organization.id, { name: 'theirs.png', type: 'image/png', size: PNG.length })
    ).json();
    const forged = announced.url.replace(/signature=.*/, 'signature=forged');
    expect((await put(forged, PNG)).statusCode).toBe(404);
    expect((await put(announced.url.replace(announced.key, 'nope'), PNG)).statusCode).toBe(404);
    expect((await put(announced.url, PNG)).statusCode).toBe(200);

    const space = await api.createSpace(mine.admin, mine.organization.id);
    const cr = await api.openChangeRequest(mine.admin, space.id);
    const before = (await api.getChangeRequest(mine.admin, space.id, cr)).json().revision;
    const res = await api.writeContent(mine.admin, space.id, cr, [
      { operation: 'insert_files', files: [{ name: 'theirs.png', url: announced.url }] },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain(
      `body/changes/0/files/0/url: no completed upload ${announced.key} in this organization`,
    );
    expect(res.json().error.message).toContain('(refused: change 0 of 1, files "theirs.png";');
    expect((await api.getChangeRequest(mine.admin, space.id, cr)).json().revision).toBe(before);

    // An upload still waiting for its bytes cannot be taken either.
    const pending = (
      await announce(mine.admin, mine.organization.id, { name: 'later.png', type: 'image/png', size: 5 })
    ).json();
    const early = await api.writeContent(mine.admin, space.id, cr, [
      { operation: 'insert_files', files: [{ name: 'later.png', url: pending.url }] },
    ]);
    expect(early.statusCode).toBe(400);
  });
});
