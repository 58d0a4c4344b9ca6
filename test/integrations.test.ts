import { GitBookAPIError, type PublishIntegration } from '@gitbook/api';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorHandlingPlugin } from '../src/core/errors.js';
import { Keyring } from '../src/core/keyring.js';
import { sharedSchemas } from '../src/core/schemas.js';
import { randomString } from '../src/core/ids.js';
import { integrationAssetRoutes } from '../src/integrations/asset-routes.js';
import { openSecret } from '../src/integrations/secrets.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

/** Small enough that a test image can pass it, and an image a few KiB larger cannot. */
const MAX_IMAGE_BYTES = 4096;
const t = useTestApp({ config: { integrations: { maxImageBytes: MAX_IMAGE_BYTES } } });

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
/** A 1×1 GIF. */
const GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
const PNG_BYTES = Buffer.from(PNG, 'base64');

interface Integration {
  object: string;
  name: string;
  version: number;
  title: string;
  description: string;
  summary?: string;
  previewImages: string[];
  target: string;
  visibility: string;
  verified: boolean;
  scopes: string[];
  categories: string[];
  blocks: Array<{ id: string; urlUnfurl?: string[] }>;
  contentSources: unknown[];
  configurations: Record<string, unknown>;
  externalLinks: unknown[];
  owner: { id: string; object: string };
  urls: { location: string; icon?: string; app: string; assets: string; publicEndpoint: string };
  permissions: { admin: boolean; install: boolean };
  contentSecurityPolicy?: unknown;
}
interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

type Method = 'GET' | 'POST' | 'DELETE';
function call(account: Account | null, method: Method, url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/v1${url}`,
    ...(account ? { headers: account.headers } : {}),
    ...(payload ? { payload } : {}),
  });
}

const uniqueName = (prefix: string) => `${prefix}-${randomString(8).toLowerCase()}`;

function definition(organization: string, fields: Record<string, unknown> = {}) {
  return {
    title: 'An integration',
    description: 'Does a thing',
    script: 'export default {}',
    organization,
    visibility: 'public',
    ...fields,
  };
}

async function publish(account: Account, name: string, body: object): Promise<Integration> {
  const res = await call(account, 'POST', `/integrations/${name}`, body);
  expect(res.statusCode, res.body).toBe(200);
  expectSpecResponse('publishIntegration', 200, res.json());
  return res.json<Integration>();
}

async function list(account: Account, query: Record<string, string> = {}): Promise<Page<Integration>> {
  const res = await t.app.inject({ method: 'GET', url: '/v1/integrations', headers: account.headers, query });
  expect(res.statusCode, res.body).toBe(200);
  expectSpecResponse('listIntegrations', 200, res.json());
  return res.json<Page<Integration>>();
}

/** Everything the integration tables hold: what a refused publish must leave as it was. */
async function integrationTables() {
  const rows = async (table: string) =>
    (await sql<{ row: string }>`select t::text as row from ${sql.table(table)} t order by 1`.execute(t.db)).rows.map(
      (r) => r.row,
    );
  return {
    integrations: await rows('integrations'),
    integration_assets: await rows('integration_assets'),
    integration_secrets: await rows('integration_secrets'),
  };
}

/**
 * The app that serves integration assets: the service's own once it
 * registers the public asset route, else the route alone on the same context.
 */
async function assetServer() {
  if (t.app.hasRoute({ method: 'GET', url: '/integration-assets/:integrationName/:file' })) return t.app;
  const app = Fastify();
  app.decorate('context', t.app.context);
  for (const schema of sharedSchemas) app.addSchema(schema);
  await app.register(errorHandlingPlugin);
  await app.register(integrationAssetRoutes);
  await app.ready();
  return app;
}

let admin: Account;
let reader: Account;
let guest: Account;
let organizationId: string;
let otherAdmin: Account;
let otherOrganizationId: string;
let stranger: Account;

beforeAll(async () => {
  const team = await t.factory.team(['read', null]);
  admin = team.admin;
  reader = team.member('read');
  guest = team.member(null);
  organizationId = team.organization.id;
  otherAdmin = await t.factory.account();
  otherOrganizationId = (await t.factory.organization(otherAdmin.user.id)).id;
  stranger = await t.factory.account();
});

describe('publishing an integration', () => {
  it('answers the Integration, with its images as URLs and never its script or secrets', async () => {
    const name = uniqueName('full');
    const integration = await publish(
      admin,
      name,
      definition(organizationId, {
        title: 'Full integration',
        description: 'Shows every field',
        summary: '# Summary\n\nLong form.',
        icon: PNG,
        previewImages: [PNG, GIF],
        visibility: 'public',
        target: 'space',
        scopes: ['space:content:read', 'site:views:read'],
        categories: ['analytics', 'content'],
        blocks: [
          {
            id: 'embed',
            title: 'Embed',
            description: 'Embeds a file',
            urlUnfurl: ['https://*.figma.com/file/*'],
            markdown: { codeblock: 'figma', body: 'url' },
          },
        ],
        contentSources: [{ id: 'pages', title: 'Pages', configuration: { componentId: 'config' } }],
        externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
        configurations: {
          account: {
            properties: { token: { type: 'string', title: 'Token' }, count: { type: 'number' } },
            required: ['token'],
          },
          space: { componentId: 'space-config' },
        },
        secrets: { API_KEY: 'plaintext-secret-value-1' },
        contentSecurityPolicy: { 'script-src': "'self'" },
        script: 'export default { fetch() { return "script-body-marker"; } }',
      }),
    );
    expect(integration).toMatchObject({
      object: 'integration',
      name,
      version: 1,
      title: 'Full integration',
      description: 'Shows every field',
      summary: '# Summary\n\nLong form.',
      target: 'space',
      verified: false,
      visibility: 'public',
      scopes: ['space:content:read', 'site:views:read'],
      categories: ['analytics', 'content'],
      blocks: [{ id: 'embed', urlUnfurl: ['https://*.figma.com/file/*'] }],
      contentSources: [{ id: 'pages', title: 'Pages', configuration: { componentId: 'config' } }],
      externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
      configurations: { space: { componentId: 'space-config' } },
      owner: { object: 'organization', id: organizationId },
      permissions: { admin: true, install: true },
      contentSecurityPolicy: { 'script-src': "'self'" },
      urls: {
        location: `${PUBLIC_URL}/v1/integrations/${name}`,
        app: `${PUBLIC_URL}/app/integrations/${name}`,
        assets: `${PUBLIC_URL}/integration-assets/${name}`,
      },
    });
    expect(integration.previewImages).toHaveLength(2);
    for (const url of [...integration.previewImages, integration.urls.icon!]) {
      expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/integration-assets/${name}/[A-Za-z0-9]{20}\\.(png|gif)$`));
    }
    const body = JSON.stringify(integration);
    expect(body).not.toContain('plaintext-secret-value-1');
    expect(body).not.toContain('script-body-marker');
    expect(body).not.toMatch(/"(script|secrets)"/);
  });

  it('takes a string content security policy, leaves out what was not given, and defaults to private and all targets', async () => {
    const name = uniqueName('plain');
    const { visibility: _visibility, ...body } = definition(organizationId, {
      contentSecurityPolicy: "default-src 'self'",
    });
    const integration = await publish(admin, name, body);
    expect(integration).toMatchObject({
      visibility: 'private',
      target: 'all',
      scopes: [],
      categories: [],
      blocks: [],
      previewImages: [],
      contentSecurityPolicy: "default-src 'self'",
    });
    expect(integration.summary).toBeUndefined();
    expect(integration.urls.icon).toBeUndefined();
  });

  it('accepts the organization’s subdomain in place of its id', async () => {
    const subdomain = `sub${randomString(8).toLowerCase()}`;
    await t.db.updateTable('organizations').set({ hostname: subdomain }).where('id', '=', organizationId).execute();
    try {
      const integration = await publish(admin, uniqueName('subdomain'), definition(subdomain));
      expect(integration.owner.id).toBe(organizationId);
    } finally {
      await t.db.updateTable('organizations').set({ hostname: null }).where('id', '=', organizationId).execute();
    }
  });

  it('bumps the version and replaces the definition when its organization publishes it again', async () => {
    const name = uniqueName('versions');
    const first = await publish(
      admin,
      name,
      definition(organizationId, {
        icon: PNG,
        blocks: [{ id: 'a', title: 'Block A', urlUnfurl: ['https://a.example.com/*'] }],
        categories: ['analytics'],
        secrets: { OLD: 'old-secret' },
      }),
    );
    const second = await publish(
      admin,
      name,
      definition(organizationId, { title: 'Renamed', categories: ['marketing'], secrets: { NEW: 'new-secret' } }),
    );
    expect(first.version).toBe(1);
    expect(second).toMatchObject({ version: 2, title: 'Renamed', categories: ['marketing'], blocks: [] });
    expect(second.urls.icon).toBeUndefined();
    const third = await publish(admin, name, definition(organizationId, { title: 'Third' }));
    expect(third.version).toBe(3);

    const [row] = await t.db
      .selectFrom('integrations')
      .select(['id', 'block_domains'])
      .where('name', '=', name)
      .execute();
    expect(row!.block_domains).toEqual([]);
    const secrets = await t.db
      .selectFrom('integration_secrets')
      .select('name')
      .where('integration_id', '=', row!.id)
      .execute();
    expect(secrets).toEqual([]);
    const assets = await t.db
      .selectFrom('integration_assets')
      .select('id')
      .where('integration_id', '=', row!.id)
      .execute();
    expect(assets).toEqual([]);
    // The first version's icon is gone with it.
    const server = await assetServer();
    expect((await server.inject({ method: 'GET', url: new URL(first.urls.icon!).pathname })).statusCode).toBe(404);
  });

  it('is a 409 for another organization, and changes nothing', async () => {
    const name = uniqueName('taken');
    await publish(admin, name, definition(organizationId, { title: 'Original' }));
    const before = await integrationTables();
    const res = await call(otherAdmin, 'POST', `/integrations/${name}`, definition(otherOrganizationId));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({
      error: { code: 409, message: `The integration name "${name}" is taken by another organization` },
    });
    expect(await integrationTables()).toEqual(before);
  });

  it('gives one name to one of two organizations publishing it at the same moment; the other gets a 409', async () => {
    for (let round = 0; round < 3; round++) {
      const name = uniqueName('race');
      const answers = await Promise.all([
        call(admin, 'POST', `/integrations/${name}`, definition(organizationId, { title: 'From the first' })),
        call(otherAdmin, 'POST', `/integrations/${name}`, definition(otherOrganizationId, { title: 'From the other' })),
      ]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
      const rows = await t.db
        .selectFrom('integrations')
        .select(['organization_id', 'version'])
        .where('name', '=', name)
        .execute();
      expect(rows).toHaveLength(1);
      const winner = answers.find((res) => res.statusCode === 200)!.json<Integration>();
      expect(rows[0]).toEqual({ organization_id: winner.owner.id, version: 1 });
    }
  });

  describe('refuses, changing nothing,', () => {
    const bigPng = () => Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_IMAGE_BYTES)]).toString('base64');
    const cases: Array<[string, () => Account, () => object, number, string | RegExp]> = [
      [
        'a title of 1 character',
        () => admin,
        () => definition(organizationId, { title: 'A' }),
        400,
        'body/title must NOT have fewer than 2 characters',
      ],
      [
        'a title of 31 characters',
        () => admin,
        () => definition(organizationId, { title: 'T'.repeat(31) }),
        400,
        'body/title must NOT have more than 30 characters',
      ],
      [
        'a description of 101 characters',
        () => admin,
        () => definition(organizationId, { description: 'd'.repeat(101) }),
        400,
        'body/description must NOT have more than 100 characters',
      ],
      [
        'a summary of 2049 characters',
        () => admin,
        () => definition(organizationId, { summary: 's'.repeat(2049) }),
        400,
        'body/summary must NOT have more than 2048 characters',
      ],
      [
        '4 preview images',
        () => admin,
        () => definition(organizationId, { previewImages: [PNG, PNG, PNG, PNG] }),
        400,
        'body/previewImages must NOT have more than 3 items',
      ],
      [
        'base64 that is not an image',
        () => admin,
        () => definition(organizationId, { icon: Buffer.from('just some text, not an image').toString('base64') }),
        400,
        'body/icon: is not a PNG, JPEG, GIF or WebP image',
      ],
      [
        'text that is not base64',
        () => admin,
        () => definition(organizationId, { previewImages: [PNG, 'not base64 at all!'] }),
        400,
        'body/previewImages/1: is not base64',
      ],
      [
        'an SVG',
        () => admin,
        () =>
          definition(organizationId, {
            icon: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>').toString('base64'),
          }),
        400,
        'body/icon: is not a PNG, JPEG, GIF or WebP image',
      ],
      [
        'an image over the limit',
        () => admin,
        () => definition(organizationId, { previewImages: [bigPng()] }),
        400,
        `body/previewImages/0 is larger than the ${MAX_IMAGE_BYTES} bytes an image may have`,
      ],
      [
        'a missing script',
        () => admin,
        () => {
          const { script: _script, ...body } = definition(organizationId);
          return body;
        },
        400,
        'body/script is required',
      ],
      [
        'an unknown visibility',
        () => admin,
        () => definition(organizationId, { visibility: 'secret' }),
        400,
        'body/visibility must be one of: "public", "private", "unlisted"',
      ],
      [
        'an unknown scope',
        () => admin,
        () => definition(organizationId, { scopes: ['space:everything'] }),
        400,
        /^body\/scopes\/0 must be one of/,
      ],
      [
        '6 external links',
        () => admin,
        () =>
          definition(organizationId, {
            externalLinks: Array.from({ length: 6 }, (_, i) => ({ url: `https://e.com/${i}`, label: 'L' })),
          }),
        400,
        'body/externalLinks must NOT have more than 5 items',
      ],
      [
        '21 secrets',
        () => admin,
        () =>
          definition(organizationId, {
            secrets: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`S${i}`, 'v'])),
          }),
        400,
        'body/secrets must NOT have more than 20 properties',
      ],
      [
        'a secret too long',
        () => admin,
        () => definition(organizationId, { secrets: { KEY: 'v'.repeat(8193) } }),
        400,
        'body/secrets/KEY must NOT have more than 8192 characters',
      ],
      [
        'two blocks with one id',
        () => admin,
        () =>
          definition(organizationId, {
            blocks: [
              { id: 'b', title: 'One' },
              { id: 'b', title: 'Two' },
            ],
          }),
        400,
        'body/blocks has two blocks with the id "b"',
      ],
      [
        'a required property it does not declare',
        () => admin,
        () => definition(organizationId, { configurations: { account: { properties: {}, required: ['missing'] } } }),
        400,
        'body/configurations/account/required names "missing", which is not one of its properties',
      ],
      [
        'an organization where the caller is a member, not an admin',
        () => reader,
        () => definition(organizationId),
        403,
        'Publishing an integration needs the admin role in the organization',
      ],
      [
        'an organization where the caller is a guest',
        () => guest,
        () => definition(organizationId),
        403,
        'Publishing an integration needs the admin role in the organization',
      ],
      [
        'an organization the caller is not in',
        () => stranger,
        () => definition(organizationId),
        404,
        'body/organization: no organization with this id or subdomain is visible to you',
      ],
      [
        'an organization that does not exist',
        () => admin,
        () => definition('nope'),
        404,
        'body/organization: no organization with this id or subdomain is visible to you',
      ],
    ];
    it.each(cases)('%s', async (_case, account, body, status, message) => {
      const before = await integrationTables();
      const res = await call(account(), 'POST', `/integrations/${uniqueName('refused')}`, body());
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.code).toBe(status);
      expect(res.json().error.message).toMatch(message);
      expect(await integrationTables()).toEqual(before);
    });

    it.each([['has a space'], ['has/slash'], ['..'], ['n'.repeat(101)], ['bad!name']])(
      'a bad name: %s',
      async (name) => {
        const before = await integrationTables();
        const res = await call(admin, 'POST', `/integrations/${encodeURIComponent(name)}`, definition(organizationId));
        // A name past the router's bound on a path parameter is a 414; `..` leads to the API's root, read only (405).
        expect([400, 404, 405, 414]).toContain(res.statusCode);
        if (res.statusCode === 400) expect(res.json().error.message).toMatch(/^params\/integrationName/);
        expect(await integrationTables()).toEqual(before);
      },
    );

    it('a republish with a bad image, keeping the published version as it was', async () => {
      const name = uniqueName('keeps');
      await publish(admin, name, definition(organizationId, { icon: PNG }));
      const before = await integrationTables();
      const res = await call(admin, 'POST', `/integrations/${name}`, definition(organizationId, { icon: 'AAAA' }));
      expect(res.statusCode).toBe(400);
      expect(await integrationTables()).toEqual(before);
    });
  });
});

describe('reading integrations', () => {
  it('gets one by name, as anyone authenticated sees a public one', async () => {
    const name = uniqueName('public');
    await publish(admin, name, definition(organizationId, { visibility: 'public' }));
    for (const [account, admins] of [
      [admin, true],
      [reader, false],
      [stranger, false],
    ] as const) {
      const res = await call(account, 'GET', `/integrations/${name}`);
      expect(res.statusCode).toBe(200);
      expectSpecResponse('getIntegrationByName', 200, res.json());
      expect(res.json<Integration>().permissions.admin).toBe(admins);
    }
    // The stranger is an admin nowhere: nowhere to install it.
    expect((await call(stranger, 'GET', `/integrations/${name}`)).json<Integration>().permissions.install).toBe(false);
    expect((await call(otherAdmin, 'GET', `/integrations/${name}`)).json<Integration>().permissions.install).toBe(true);
    const missing = await call(admin, 'GET', `/integrations/${uniqueName('missing')}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: { code: 404, message: 'No integration with this name is visible to you' },
    });
    expect((await call(null, 'GET', `/integrations/${name}`)).statusCode).toBe(401);
  });

  it('shows a private integration to members of its organization only: a 404 for anyone else, guests included', async () => {
    const name = uniqueName('private');
    await publish(admin, name, definition(organizationId, { visibility: 'private' }));
    const unknown = await call(stranger, 'GET', `/integrations/${uniqueName('unknown')}`);
    for (const account of [admin, reader])
      expect((await call(account, 'GET', `/integrations/${name}`)).statusCode).toBe(200);
    for (const account of [guest, stranger, otherAdmin]) {
      const res = await call(account, 'GET', `/integrations/${name}`);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    const member = await list(reader, { owner: organizationId, limit: '1000' });
    expect(member.items.map((item) => item.name)).toContain(name);
    for (const account of [guest, stranger]) {
      const listed = await list(account, { limit: '1000' });
      expect(listed.items.map((item) => item.name)).not.toContain(name);
    }
    // Nor does anyone else unpublish it: they cannot see it.
    expect((await call(otherAdmin, 'DELETE', `/integrations/${name}`)).statusCode).toBe(404);
  });

  it('shows an unlisted integration to anyone who names it, and lists it for members of its organization only', async () => {
    const name = uniqueName('unlisted');
    await publish(admin, name, definition(organizationId, { visibility: 'unlisted' }));
    for (const account of [admin, reader, guest, stranger]) {
      expect((await call(account, 'GET', `/integrations/${name}`)).statusCode).toBe(200);
    }
    for (const account of [admin, reader]) {
      expect((await list(account, { limit: '1000' })).items.map((item) => item.name)).toContain(name);
    }
    for (const account of [guest, stranger]) {
      expect((await list(account, { limit: '1000' })).items.map((item) => item.name)).not.toContain(name);
    }
  });

  describe('the list filters', () => {
    const tag = randomString(6).toLowerCase();
    const fixtures: Record<string, Record<string, unknown>> = {
      [`figma-${tag}`]: {
        title: `Figma ${tag}`,
        categories: ['analytics'],
        scopes: ['space:content:read'],
        target: 'all',
        blocks: [{ id: 'file', title: 'File', urlUnfurl: ['https://*.figma.com/file/*', 'figma.io/embed'] }],
      },
      [`slack-${tag}`]: {
        title: `Slack ${tag}`,
        categories: ['collaboration'],
        scopes: ['site:views:read'],
        target: 'site',
        contentSources: [{ id: 'messages', title: 'Messages', configuration: { componentId: 'configure' } }],
      },
      [`github-${tag}`]: {
        title: `GitHub Sync ${tag}`,
        categories: ['gitsync', 'analytics'],
        scopes: ['space:git:sync', 'space:content:read'],
        target: 'space',
        blocks: [{ id: 'code', title: 'Code', urlUnfurl: ['https://github.com/*'] }],
        contentSources: [{ id: 'repo', title: 'Repository', configuration: { componentId: 'repo' } }],
      },
    };
    const otherFixture = `mermaid-${tag}`;
    const all = [...Object.keys(fixtures), otherFixture];

    beforeAll(async () => {
      for (const [name, fields] of Object.entries(fixtures)) {
        await publish(admin, name, definition(organizationId, fields));
      }
      await publish(
        otherAdmin,
        otherFixture,
        definition(otherOrganizationId, { title: `Mermaid ${tag}`, categories: ['content'], target: 'organization' }),
      );
    });

    /** The fixtures the list gives for `query`, sorted. */
    const found = async (query: Record<string, string>) =>
      (await list(stranger, { limit: '1000', ...query })).items
        .map((item) => item.name)
        .filter((name) => all.includes(name))
        .sort();

    it.each<[string, Record<string, string>, string[]]>([
      ['no filter', {}, all],
      ['search (name)', { search: `SLACK-${tag}` }, [`slack-${tag}`]],
      ['search (title)', { search: `hub sync ${tag}` }, [`github-${tag}`]],
      ['search (pattern characters taken literally)', { search: `%${tag}` }, []],
      ['category', { category: 'analytics' }, [`figma-${tag}`, `github-${tag}`]],
      ['category (other)', { category: 'content' }, [otherFixture]],
      ['blockDomain (wildcard pattern)', { blockDomain: 'www.figma.com' }, [`figma-${tag}`]],
      ['blockDomain (a wildcard does not match its bare domain)', { blockDomain: 'figma.com' }, []],
      ['blockDomain (pattern without scheme)', { blockDomain: 'FIGMA.IO' }, [`figma-${tag}`]],
      ['blockDomain (exact host)', { blockDomain: 'github.com' }, [`github-${tag}`]],
      ['blocks=true', { blocks: 'true' }, [`figma-${tag}`, `github-${tag}`]],
      ['blocks=false', { blocks: 'false' }, [otherFixture, `slack-${tag}`]],
      ['contentSources=true', { contentSources: 'true' }, [`github-${tag}`, `slack-${tag}`]],
      ['contentSources=false', { contentSources: 'false' }, [`figma-${tag}`, otherFixture]],
      ['scope', { scope: 'space:content:read' }, [`figma-${tag}`, `github-${tag}`]],
      ['target', { target: 'site' }, [`slack-${tag}`]],
      ['target (organization)', { target: 'organization' }, [otherFixture]],
      ['filters together', { category: 'analytics', contentSources: 'true', blocks: 'true' }, [`github-${tag}`]],
    ])('%s', async (_case, query, expected) => {
      expect(await found(query)).toEqual([...expected].sort());
    });

    it('owner', async () => {
      expect(await found({ owner: otherOrganizationId })).toEqual([otherFixture]);
      const mine = await list(stranger, { owner: organizationId, limit: '1000' });
      expect(mine.items.every((item) => item.owner.id === organizationId)).toBe(true);
      expect(await found({ owner: organizationId })).toEqual(Object.keys(fixtures).sort());
    });

    it.each([
      ['category', 'nope'],
      ['scope', 'space:nothing'],
      ['target', 'galaxy'],
      ['blockDomain', 'has/slash'],
      ['blockDomain', 'd'.repeat(101)],
      ['blocks', 'maybe'],
      ['search', 's'.repeat(101)],
      ['unknown', 'x'],
    ])('refuse a bad %s (%s)', async (name, value) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/integrations',
        headers: stranger.headers,
        query: { [name]: value },
      });
      expect(res.statusCode, res.body).toBe(400);
    });
  });

  it('pages with keyset cursors, counting every match', async () => {
    const team = await t.factory.team();
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      const name = uniqueName(`page${i}`);
      names.push(name);
      await publish(team.admin, name, definition(team.organization.id));
    }
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const result = await list(stranger, { owner: team.organization.id, limit: '2', ...(page ? { page } : {}) });
      expect(result.count).toBe(5);
      seen.push(...result.items.map((item) => item.name));
      page = result.next?.page;
      pages++;
    } while (page);
    expect(pages).toBe(3);
    expect(seen).toEqual([...names].reverse());

    const first = await list(stranger, { owner: team.organization.id, limit: '2' });
    // A cursor of another list, or altered, is a 400.
    const foreign = await t.app.inject({
      method: 'GET',
      url: '/v1/integrations',
      headers: stranger.headers,
      query: { owner: organizationId, page: first.next!.page },
    });
    expect(foreign.statusCode).toBe(400);
    const altered = await t.app.inject({
      method: 'GET',
      url: '/v1/integrations',
      headers: stranger.headers,
      query: { owner: team.organization.id, page: `${first.next!.page}x` },
    });
    expect(altered.statusCode).toBe(400);
    const none = await list(stranger, { owner: team.organization.id, limit: '0' });
    expect(none).toEqual({ items: [], count: 5 });
  });

  it('counts, unfiltered, the public integrations and the others of the caller’s organizations', async () => {
    const team = await t.factory.team();
    const counts = async () => ({
      admin: (await list(team.admin, { limit: '1' })).count,
      stranger: (await list(stranger, { limit: '1' })).count,
    });
    const before = await counts();
    await publish(team.admin, uniqueName('private'), definition(team.organization.id, { visibility: 'private' }));
    await publish(team.admin, uniqueName('unlisted'), definition(team.organization.id, { visibility: 'unlisted' }));
    await publish(team.admin, uniqueName('public'), definition(team.organization.id, { visibility: 'public' }));
    // The member counts all three; someone of no organization of theirs only the public one.
    expect(await counts()).toEqual({ admin: before.admin + 3, stranger: before.stranger + 1 });
    const everything = await list(team.admin, { limit: '100' });
    expect(everything.items.length).toBe(Math.min(100, everything.count));
  });

  it('show an organization’s private integrations to a member while they have a role, kept lists included', async () => {
    const team = await t.factory.team([null]);
    const member = team.member(null);
    const name = uniqueName('inner');
    await publish(team.admin, name, definition(team.organization.id, { visibility: 'private' }));
    const owned = async () => (await list(member, { owner: team.organization.id })).items.map((item) => item.name);
    const setRole = async (role: string | null) => {
      const url = `/v1/orgs/${team.organization.id}/members/${member.user.id}`;
      const res = await t.app.inject({ method: 'PATCH', url, headers: team.admin.headers, payload: { role } });
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    expect(await owned()).toEqual([]);
    expect(await owned()).toEqual([]); // now a kept answer
    await setRole('read');
    expect(await owned()).toEqual([name]);
    expect(await owned()).toEqual([name]);
    await setRole(null);
    expect(await owned()).toEqual([]);
  });
});

describe('unpublishing an integration', () => {
  it('is for admins of its organization: 204, and it is gone with its images and secrets', async () => {
    const name = uniqueName('gone');
    const published = await publish(admin, name, definition(organizationId, { icon: PNG, secrets: { KEY: 'value' } }));
    const { id } = await t.db
      .selectFrom('integrations')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    for (const account of [reader, guest, otherAdmin]) {
      const res = await call(account, 'DELETE', `/integrations/${name}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(
        'Unpublishing an integration needs the admin role in the organization that publishes the integration',
      );
    }
    const res = await call(admin, 'DELETE', `/integrations/${name}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await call(admin, 'GET', `/integrations/${name}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/integrations/${name}`)).statusCode).toBe(404);
    for (const table of ['integration_assets', 'integration_secrets'] as const) {
      expect(await t.db.selectFrom(table).select('integration_id').where('integration_id', '=', id).execute()).toEqual(
        [],
      );
    }
    const server = await assetServer();
    expect((await server.inject({ method: 'GET', url: new URL(published.urls.icon!).pathname })).statusCode).toBe(404);
  });
});

describe('secrets', () => {
  it('are never returned by a read, and their plaintext is nowhere in the database', async () => {
    const name = uniqueName('secrets');
    const plaintext = `very-secret-${randomString(16)}`;
    await publish(
      admin,
      name,
      definition(organizationId, { secrets: { API_KEY: plaintext, OTHER: `${plaintext}-2` } }),
    );
    const reads = [
      await call(admin, 'GET', `/integrations/${name}`),
      await call(admin, 'GET', `/integrations?owner=${organizationId}&limit=1000`),
      await call(stranger, 'GET', `/integrations/${name}`),
    ];
    for (const res of reads) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(plaintext);
    }
    // Every table's text, as PostgreSQL would dump it.
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
    `.execute(t.db);
    for (const { table_name } of tables.rows) {
      const hit = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(table_name)} t where t::text like ${`%${plaintext}%`}
      `.execute(t.db);
      expect(hit.rows[0]!.n, table_name).toBe(0);
    }
    // Sealed under the key derived from the service secret, and bound to their integration and name.
    const { id } = await t.db
      .selectFrom('integrations')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    const rows = await t.db
      .selectFrom('integration_secrets')
      .select(['name', 'sealed', 'key_id'])
      .where('integration_id', '=', id)
      .orderBy('name')
      .execute();
    const keyring = Keyring.fromConfig(t.app.config.encryption, t.app.serviceSecret);
    expect(rows.map((row) => row.key_id)).toEqual([keyring.currentKeyId, keyring.currentKeyId]);
    expect(rows[0]!.sealed).toMatch(new RegExp(`^k1\\.${keyring.currentKeyId}\\.`));
    expect(openSecret(keyring, id, 'API_KEY', rows[0]!.sealed)).toBe(plaintext);
    expect(() => openSecret(keyring, id, 'OTHER', rows[0]!.sealed)).toThrow(/altered or moved/);
  });
});

describe('images', () => {
  it('are served at public URLs with their type and caching headers', async () => {
    const integration = await publish(
      admin,
      uniqueName('images'),
      definition(organizationId, { icon: PNG, previewImages: [GIF], visibility: 'private' }),
    );
    const server = await assetServer();
    const icon = await server.inject({ method: 'GET', url: new URL(integration.urls.icon!).pathname });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(icon.headers['x-content-type-options']).toBe('nosniff');
    expect(icon.rawPayload.equals(PNG_BYTES)).toBe(true);
    const again = await server.inject({
      method: 'GET',
      url: new URL(integration.urls.icon!).pathname,
      headers: { 'if-none-match': String(icon.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const preview = await server.inject({ method: 'GET', url: new URL(integration.previewImages[0]!).pathname });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/gif');
    expect(preview.rawPayload.equals(Buffer.from(GIF, 'base64'))).toBe(true);
    // Another integration's name, or an unknown file, is a 404.
    const file = new URL(integration.urls.icon!).pathname.split('/').pop()!;
    for (const url of [`/integration-assets/other-name/${file}`, `/integration-assets/${integration.name}/nope.png`]) {
      expect((await server.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});

describe('the official client', () => {
  it('publishes, gets, lists and unpublishes', async () => {
    const client = officialClient(await listen(t.app), admin.token);
    const name = uniqueName('client');
    // The client types enums as TypeScript enums; the strings on the wire are the same.
    const body = {
      ...definition(organizationId, { visibility: 'unlisted' }),
      title: 'Via the client',
      description: 'Published by the official client',
      scopes: ['space:content:read'],
    } as unknown as PublishIntegration;
    const { data: published } = await client.integrations.publishIntegration(name, body);
    expect(published).toMatchObject({ name, version: 1, visibility: 'unlisted' });
    expectSpecResponse('publishIntegration', 200, published);
    const { data: got } = await client.integrations.getIntegrationByName(name);
    expectSpecResponse('getIntegrationByName', 200, got);
    expect(got.title).toBe('Via the client');
    const { data: listed } = await client.integrations.listIntegrations({ owner: organizationId, limit: 1000 });
    expectSpecResponse('listIntegrations', 200, listed);
    expect(listed.items.map((item) => item.name)).toContain(name);
    await client.integrations.unpublishIntegration(name);
    const missing = await client.integrations.getIntegrationByName(name).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(GitBookAPIError);
    expect((missing as GitBookAPIError).code).toBe(404);
    const refused = await client.integrations
      .publishIntegration(name, { ...body, title: 'X' })
      .catch((error: unknown) => error);
    expect((refused as GitBookAPIError).code).toBe(400);
  });
});
