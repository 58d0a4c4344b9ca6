import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

/** Real WOFF2 fonts: KaTeX ships its own. */
const REGULAR = readFileSync('node_modules/katex/dist/fonts/KaTeX_Main-Regular.woff2');
const BOLD = readFileSync('node_modules/katex/dist/fonts/KaTeX_Main-Bold.woff2');
/** The same family as WOFF (version 1): a font, but not WOFF2. */
const WOFF1 = readFileSync('node_modules/katex/dist/fonts/KaTeX_Main-Regular.woff');

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let admin: Account;
let outsider: Team;

beforeAll(async () => {
  team = await t.factory.team(['edit', 'read']);
  admin = team.admin;
  outsider = await t.factory.team();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (account: Account | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account?.headers ?? {}, ...(payload ? { payload } : {}) });

const fontsPath = (organizationId = team.organization.id) => `/v1/orgs/${organizationId}/fonts`;

/** Uploads bytes to the organization's storage and answers the upload's key. */
async function upload(account: Account, organizationId: string, bytes: Buffer, name = 'font.woff2') {
  const announced = await call(account, 'POST', `/v1/orgs/${organizationId}/storage/upload`, {
    file: { name, type: 'font/woff2', size: bytes.length },
    kind: 'customization_font',
  });
  expect(announced.statusCode, announced.body).toBe(201);
  const { url, key } = announced.json() as { url: string; key: string };
  const put = await t.app.inject({
    method: 'PUT',
    url: url.slice(PUBLIC_URL.length),
    headers: { 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
  expect(put.statusCode, put.body).toBe(200);
  return key;
}

interface Font {
  id: string;
  custom: boolean;
  fontFamily: string;
  fontFaces: Array<{ weight: number; sources: Array<{ url: string; format?: string }> }>;
  permissions: { edit: boolean };
}

async function createFont(owner: Team = team, fontFamily = 'Acme Sans') {
  const key = await upload(owner.admin, owner.organization.id, REGULAR);
  const created = await call(owner.admin, 'PUT', fontsPath(owner.organization.id), {
    fontFamily,
    fontFaces: [{ weight: 400, storageKey: key }],
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as Font;
}

const fontRows = (organizationId = team.organization.id) =>
  t.db
    .selectFrom('custom_fonts')
    .leftJoin('custom_font_faces', 'custom_font_faces.font_id', 'custom_fonts.id')
    .select(['custom_fonts.id', 'custom_fonts.font_family', 'custom_font_faces.weight'])
    .where('custom_fonts.organization_id', '=', organizationId)
    .orderBy('custom_fonts.id')
    .orderBy('custom_font_faces.weight')
    .execute();

const served = (url: string) => t.app.inject({ method: 'GET', url: url.slice(PUBLIC_URL.length) });

describe('custom fonts through the API', () => {
  it('are created from a WOFF2 upload, read, changed and deleted by admins, as the spec answers', async () => {
    const font = await createFont();
    expectNewestSpecResponse('createCustomFont', 201, font);
    expect(font).toMatchObject({ custom: true, fontFamily: 'Acme Sans', permissions: { edit: true } });
    expect(font.fontFaces).toHaveLength(1);
    const [face] = font.fontFaces;
    expect(face!.weight).toBe(400);
    expect(face!.sources).toEqual([
      { url: expect.stringMatching(`^${PUBLIC_URL}/fonts/${font.id}/400-`), format: 'woff2' },
    ]);

    const got = await call(admin, 'GET', `${fontsPath()}/${font.id}`);
    expect(got.statusCode).toBe(200);
    expectNewestSpecResponse('getCustomFont', 200, got.json());
    expect(got.json()).toEqual(font);

    const bold = await upload(admin, team.organization.id, BOLD);
    const updated = await call(admin, 'POST', `${fontsPath()}/${font.id}`, {
      fontFamily: 'Acme Sans Pro',
      fontFaces: [{ weight: 700, storageKey: bold }],
    });
    expect(updated.statusCode, updated.body).toBe(201);
    expectNewestSpecResponse('updateCustomFont', 201, updated.json());
    expect((updated.json() as Font).fontFaces.map((f) => f.weight)).toEqual([400, 700]);
    expect(await fontRows()).toEqual([
      { id: font.id, font_family: 'Acme Sans Pro', weight: 400 },
      { id: font.id, font_family: 'Acme Sans Pro', weight: 700 },
    ]);

    const removed = await call(admin, 'POST', `${fontsPath()}/${font.id}`, {
      fontFaces: [{ weight: 700, storageKey: null }],
    });
    expect(removed.statusCode, removed.body).toBe(201);
    expect((removed.json() as Font).fontFaces.map((f) => f.weight)).toEqual([400]);

    const deleted = await call(admin, 'DELETE', `${fontsPath()}/${font.id}`);
    expect(deleted.statusCode).toBe(205);
    expect(await fontRows()).toEqual([]);
    // The spec answers 204 for a font that is not there.
    expect((await call(admin, 'DELETE', `${fontsPath()}/${font.id}`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', `${fontsPath()}/${font.id}`)).statusCode).toBe(404);
  });

  it('are listed to members, who may not change them, also through the newest client', async () => {
    const owner = await t.factory.team(['read']);
    const first = await createFont(owner, 'First');
    const second = await createFont(owner, 'Second');
    const address = await listen(t.app);
    const listed = await newestOfficialClient(address, owner.member('read').token).orgs.listCustomFonts(
      owner.organization.id,
    );
    expectNewestSpecResponse('listCustomFonts', 200, listed.data);
    expect(listed.data.count).toBe(2);
    expect(listed.data.items.map((font) => [font.id, font.permissions.edit])).toEqual([
      [first.id, false],
      [second.id, false],
    ]);
    const got = await newestOfficialClient(address, owner.admin.token).orgs.getCustomFont(
      owner.organization.id,
      first.id,
    );
    expect(got.data).toEqual(first);

    const reader = owner.member('read');
    const key = await upload(owner.admin, owner.organization.id, REGULAR);
    const refused = [
      await call(reader, 'PUT', fontsPath(owner.organization.id), {
        fontFamily: 'Mine',
        fontFaces: [{ weight: 400, storageKey: key }],
      }),
      await call(reader, 'POST', `${fontsPath(owner.organization.id)}/${first.id}`, { fontFamily: 'Mine' }),
      await call(reader, 'DELETE', `${fontsPath(owner.organization.id)}/${first.id}`),
    ];
    expect(refused.map((answer) => answer.statusCode)).toEqual([403, 403, 403]);
    expect((await fontRows(owner.organization.id)).map((row) => row.font_family).sort()).toEqual(['First', 'Second']);
  });

  it('are refused unless every file is a real WOFF2 font, and nothing is stored', async () => {
    const owner = await t.factory.team();
    const organizationId = owner.organization.id;
    const truncated = REGULAR.subarray(0, REGULAR.length - 100);
    const corrupt = Buffer.from(REGULAR);
    corrupt.fill(0x41, 200, 400);
    const cases: Array<[Buffer, RegExp]> = [
      [WOFF1, /signature wOF2/],
      [Buffer.from('<svg onload="alert(1)"></svg>'), /shorter than a WOFF2 header|signature/],
      [truncated, /length in its header/],
      [corrupt, /WOFF2/],
    ];
    for (const [bytes, reason] of cases) {
      const key = await upload(owner.admin, organizationId, bytes);
      const answer = await call(owner.admin, 'PUT', fontsPath(organizationId), {
        fontFamily: 'Broken',
        fontFaces: [{ weight: 400, storageKey: key }],
      });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().error.message).toMatch(
        /^body\/fontFaces\/0\/storageKey: the file is not a valid WOFF2 font/,
      );
      expect(answer.json().error.message).toMatch(reason);
    }
    expect(await fontRows(organizationId)).toEqual([]);
  });

  it('refuse bad input with a 4xx naming it, and change nothing', async () => {
    const owner = await t.factory.team();
    const organizationId = owner.organization.id;
    const key = await upload(owner.admin, organizationId, REGULAR);
    const bold = await upload(owner.admin, organizationId, BOLD);
    const create = (body: object) => call(owner.admin, 'PUT', fontsPath(organizationId), body);
    const noRegular = await create({ fontFamily: 'Bold only', fontFaces: [{ weight: 700, storageKey: bold }] });
    expect(noRegular.statusCode).toBe(412);
    expectNewestSpecResponse('createCustomFont', 412, noRegular.json());
    const twice = await create({
      fontFamily: 'Twice',
      fontFaces: [
        { weight: 400, storageKey: key },
        { weight: 400, storageKey: bold },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.message).toMatch(/body\/fontFaces\/1\/weight 400 is given twice/);
    const quoted = await create({
      fontFamily: 'x"; } body { color: red',
      fontFaces: [{ weight: 400, storageKey: key }],
    });
    expect(quoted.statusCode).toBe(400);
    expect(quoted.json().error.message).toMatch(/fontFamily/);
    for (const body of [
      { fontFamily: '', fontFaces: [{ weight: 400, storageKey: key }] },
      { fontFamily: 'x'.repeat(51), fontFaces: [{ weight: 400, storageKey: key }] },
      { fontFamily: 'No faces', fontFaces: [] },
      { fontFamily: 'Heavy', fontFaces: [{ weight: 1001, storageKey: key }] },
      { fontFamily: 'Extra', fontFaces: [{ weight: 400, storageKey: key }], style: 'italic' },
    ]) {
      expect((await create(body)).statusCode).toBe(400);
    }
    const unknown = await create({
      fontFamily: 'Ghost',
      fontFaces: [{ weight: 400, storageKey: 'NoSuchUploadKey12345' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toMatch(/^body\/fontFaces\/0\/storageKey: no completed upload/);
    expect(await fontRows(organizationId)).toEqual([]);

    const font = await createFont(owner);
    const dropRegular = await call(owner.admin, 'POST', `${fontsPath(organizationId)}/${font.id}`, {
      fontFamily: 'Renamed',
      fontFaces: [{ weight: 400, storageKey: null }],
    });
    expect(dropRegular.statusCode).toBe(412);
    expectNewestSpecResponse('updateCustomFont', 412, dropRegular.json());
    expect(await fontRows(organizationId)).toEqual([{ id: font.id, font_family: 'Acme Sans', weight: 400 }]);
  });

  it('are invisible to another organization, which can neither read, change nor use them', async () => {
    const font = await createFont();
    const attacker = outsider.admin;
    const theirs = fontsPath(team.organization.id);
    const answers = [
      await call(attacker, 'GET', theirs),
      await call(attacker, 'GET', `${theirs}/${font.id}`),
      await call(attacker, 'POST', `${theirs}/${font.id}`, { fontFamily: 'Stolen' }),
      await call(attacker, 'DELETE', `${theirs}/${font.id}`),
      await call(attacker, 'PUT', theirs, { fontFamily: 'Planted', fontFaces: [{ weight: 400, storageKey: 'abc' }] }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 404, 404, 404, 404]);
    // Their own organization's id with this font's id: no such font there.
    expect((await call(attacker, 'GET', `${fontsPath(outsider.organization.id)}/${font.id}`)).statusCode).toBe(404);
    // Another organization's upload cannot become their font.
    const key = await upload(admin, team.organization.id, REGULAR);
    const taken = await call(attacker, 'PUT', fontsPath(outsider.organization.id), {
      fontFamily: 'Taken',
      fontFaces: [{ weight: 400, storageKey: key }],
    });
    expect(taken.statusCode).toBe(400);
    expect(await fontRows(outsider.organization.id)).toEqual([]);
    expect((await call(undefined, 'GET', theirs)).statusCode).toBe(401);
    expect((await fontRows()).find((row) => row.id === font.id)?.font_family).toBe('Acme Sans');
  });
});

describe('custom fonts in published sites', () => {
  it('serve their files, cacheable from any origin, and only while the face is the font’s', async () => {
    const font = await createFont();
    const url = font.fontFaces[0]!.sources[0]!.url;
    const file = await served(url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('font/woff2');
    expect(file.headers['access-control-allow-origin']).toBe('*');
    expect(file.headers['cache-control']).toContain('immutable');
    expect(file.rawPayload.equals(REGULAR)).toBe(true);
    expect((await served(url.replace(/-[0-9a-f]{16}\.woff2$/, '-0000000000000000.woff2'))).statusCode).toBe(404);
    expect((await served(url.replace('/400-', '/700-'))).statusCode).toBe(404);
    await call(admin, 'DELETE', `${fontsPath()}/${font.id}`);
    expect((await served(url)).statusCode).toBe(404);
  });

  async function publishedSite(owner: Team, styling: Record<string, unknown>) {
    const organizationId = owner.organization.id;
    const created = await call(owner.admin, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Acme Docs' });
    expect(created.statusCode, created.body).toBe(201);
    const site = created.json() as { id: string; urls: { published?: string } };
    const space = await api.createSpace(owner.admin, organizationId, { title: 'Handbook' });
    await api.change(owner.admin, space.id, [
      { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Welcome.' } },
    ]);
    const sitePath = `/v1/orgs/${organizationId}/sites/${site.id}`;
    expect((await call(owner.admin, 'POST', `${sitePath}/site-spaces`, { spaceId: space.id })).statusCode).toBe(201);
    const current = (await call(owner.admin, 'GET', `${sitePath}/customization`)).json() as {
      styling: Record<string, unknown>;
    };
    const customized = await call(owner.admin, 'PUT', `${sitePath}/customization`, {
      ...current,
      styling: { ...current.styling, ...styling },
    });
    expect(customized.statusCode, customized.body).toBe(200);
    expect((await call(owner.admin, 'POST', `${sitePath}/publish`)).statusCode).toBe(200);
    return `/s/${site.id}`;
  }

  const definition = (font: Font) => ({
    id: font.id,
    custom: true,
    fontFamily: font.fontFamily,
    fontFaces: font.fontFaces,
  });

  it('give the site’s pages @font-face rules for the organization’s font, allowed by their policy', async () => {
    const owner = await t.factory.team();
    const font = await createFont(owner, 'Brand Sans');
    const site = await publishedSite(owner, { font: definition(font), monospaceFont: definition(font) });
    const page = await t.app.inject({ method: 'GET', url: site });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain(`font-src 'self' ${PUBLIC_URL}`);
    const link = /href="([^"]*~\/fonts\.css[^"]*)"/.exec(page.body)?.[1];
    expect(link).toBeDefined();
    const css = await t.app.inject({ method: 'GET', url: link!.replace(PUBLIC_URL, '').replaceAll('&amp;', '&') });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
    const url = font.fontFaces[0]!.sources[0]!.url;
    expect(css.body).toContain(
      `@font-face { font-family: "quire-${font.id}"; src: url("${url}") format("woff2"); font-weight: 400;`,
    );
    expect(css.body).toContain(`--font: "quire-${font.id}", "Brand Sans", system-ui`);
    expect(css.body).toContain(`--mono: "quire-${font.id}", "Brand Sans", ui-monospace`);
    const again = await t.app.inject({
      method: 'GET',
      url: link!.replace(PUBLIC_URL, ''),
      headers: { 'if-none-match': css.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    // A deleted font leaves the site in its default font.
    await call(owner.admin, 'DELETE', `${fontsPath(owner.organization.id)}/${font.id}`);
    const after = await t.app.inject({ method: 'GET', url: link!.replace(PUBLIC_URL, '') });
    expect(after.body).not.toContain('@font-face');
  });

  it('are not used by a site of another organization that names them', async () => {
    const font = await createFont(team, 'Private Sans');
    const site = await publishedSite(outsider, { font: definition(font) });
    const css = await t.app.inject({ method: 'GET', url: `${site}/~/fonts.css` });
    expect(css.statusCode).toBe(200);
    expect(css.body).toBe('');
    expect(css.body).not.toContain(font.id);
  });
});
