import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownProviderEndpoint, MAX_HEAD_CHARS, readPageHead } from '../src/urls/oembed.js';
import { buildOwnApp, listen, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const OUTBOUND = { allowPrivate: true, timeoutMs: 5_000, maxBytes: 4 * 1024 * 1024 };
const t = useTestApp({ config: { outbound: OUTBOUND } });
const api = contentApi(() => t.app);

/** Pages and an oEmbed endpoint on 127.0.0.1, as a provider would serve them; each request's path is recorded. */
interface Provider {
  url: string;
  hits: string[];
  server: Server;
}
let provider: Provider;

const PLAYER = '<iframe src="https://player.example/v/1" width="640" height="360"></iframe>';

/** Answers of `/slow/…` pages, held until the test lets them go; `heldArrived` is called as each comes in. */
const held: Array<() => void> = [];
let heldArrived: () => void = () => undefined;

function serve(): Promise<Provider> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.push(path);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const html = (head: string) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html><head>${head}</head><body>Body</body></html>`);
    };
    const json = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (path.startsWith('/video')) {
      return html(
        `<title>Ignored &amp; replaced</title><meta property="og:site_name" content="Tube">` +
          `<link rel="alternate" type="application/json+oembed" href="/oembed?url=${encodeURIComponent(`${base}${path}`)}&amp;format=json">`,
      );
    }
    if (path.startsWith('/oembed')) {
      return json({
        version: '1.0',
        type: 'video',
        title: 'A talk',
        provider_name: 'Tube',
        html: PLAYER,
        cache_age: 7200,
      });
    }
    if (path === '/photo') {
      return html(`<link rel='alternate' type='application/json+oembed' href='${base}/photo-oembed'>`);
    }
    if (path === '/photo-oembed') return json({ version: '1.0', type: 'photo', title: 'A "view"', url: '/view.png' });
    if (path === '/huge-oembed') return html(`<link rel="alternate" type="application/json+oembed" href="/too-much">`);
    if (path === '/too-much') return json({ type: 'rich', html: 'x'.repeat(20_000), title: 'Too much' });
    if (path === '/article') {
      return html(
        '<meta charset="utf-8"><title>Fallback title</title><meta property="og:title" content="An article">' +
          '<meta property="og:site_name" content="The Paper"><link rel="icon" href="/favicon.ico">' +
          '<link rel="icon" href="javascript:alert(1)">',
      );
    }
    if (path.startsWith('/slow/')) {
      held.push(() => html('<title>Slow</title>'));
      heldArrived();
      return;
    }
    if (path === '/broken') {
      response.writeHead(500);
      return response.end('down');
    }
    response.writeHead(404);
    response.end();
  });
  server.listen(0, '127.0.0.1');
  return once(server, 'listening').then(() => ({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    server,
  }));
}

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let outsider: Team;
let space: { id: string };
let guide: { id: string; path: string };

beforeAll(async () => {
  provider = await serve();
  team = await t.factory.team(['read']);
  outsider = await t.factory.team();
  space = await api.createSpace(team.admin, team.organization.id, { title: 'Handbook' });
  await api.change(team.admin, space.id, [
    { operation: 'insert_page', title: 'Guide', document: { markdown: 'The guide.' } },
  ]);
  guide = (await api.read(team.admin, `/v1/spaces/${space.id}/content/pages`)).json().pages[0] as typeof guide;
});

afterAll(async () => {
  provider?.server.close();
});

const embed = (account: Account | undefined, url: string) =>
  t.app.inject({
    method: 'GET',
    url: `/v1/urls/embed?url=${encodeURIComponent(url)}`,
    headers: account?.headers ?? {},
  });
const embedInSpace = (account: Account, spaceId: string, url: string) =>
  t.app.inject({
    method: 'GET',
    url: `/v1/spaces/${spaceId}/embed?url=${encodeURIComponent(url)}`,
    headers: account.headers,
  });
const cachedRows = (url: string) =>
  t.db.selectFrom('url_embeds').select(['url', 'embed', 'fetched_at', 'expires_at']).where('url', '=', url).execute();

describe('embeds of outside addresses', () => {
  it('follow the oEmbed address a page names, as the spec answers, and keep it for its cache_age', async () => {
    const url = `${provider.url}/video/1`;
    provider.hits.length = 0;
    const res = await embed(team.member('read'), url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ type: 'rich', html: PLAYER, title: 'A talk', site: 'Tube' });
    expectNewestSpecResponse('getEmbedByUrl', 200, res.json());
    expect(provider.hits).toEqual(['/video/1', `/oembed?url=${encodeURIComponent(url)}&format=json`]);

    const [row] = await cachedRows(url);
    expect(row?.embed).toEqual(res.json());
    expect(row!.expires_at.getTime() - row!.fetched_at.getTime()).toBe(7200 * 1000);

    // Kept: another caller, of another organization, is answered without a fetch, whatever the fragment.
    const again = await embed(outsider.admin, `${url}#at-12s`);
    expect(again.json()).toEqual(res.json());
    expect(provider.hits).toHaveLength(2);
  });

  it('show a photo as an image, and a page without oEmbed as a link with its title, site name and icon', async () => {
    const photo = await embed(team.admin, `${provider.url}/photo`);
    expect(photo.json()).toEqual({
      type: 'rich',
      html: `<img src="${provider.url}/view.png" alt="A &#34;view&#34;">`,
      title: 'A "view"',
      site: '127.0.0.1',
    });
    expectNewestSpecResponse('getEmbedByUrl', 200, photo.json());

    const article = await embed(team.admin, `${provider.url}/article`);
    expect(article.json()).toEqual({
      type: 'link',
      title: 'An article',
      site: 'The Paper',
      icon: `${provider.url}/favicon.ico`,
    });
    expectNewestSpecResponse('getEmbedByUrl', 200, article.json());

    // A provider's HTML past its bound is not taken: a link with the provider's title.
    const huge = await embed(team.admin, `${provider.url}/huge-oembed`);
    expect(huge.json()).toEqual({ type: 'link', title: 'Too much', site: '127.0.0.1' });
  });

  it('name an address that fails by its host, and keep nothing of it', async () => {
    const url = `${provider.url}/broken`;
    const res = await embed(team.admin, url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ type: 'link', title: '127.0.0.1', site: '127.0.0.1' });
    expect(await cachedRows(url)).toEqual([]);
  });

  it('refuse private addresses unless OUTBOUND_ALLOW_PRIVATE allows them, fetching nothing', async () => {
    const app = await buildOwnApp(testConfig(t.database.url, { outbound: { ...OUTBOUND, allowPrivate: false } }));
    try {
      provider.hits.length = 0;
      const url = `${provider.url}/article?private`;
      const res = await app.inject({
        method: 'GET',
        url: `/v1/urls/embed?url=${encodeURIComponent(url)}`,
        headers: team.admin.headers,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('resolves to a private address, which this service does not fetch');
      expect(provider.hits).toEqual([]);
      expect(await cachedRows(url)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('fetches at once', () => {
  it('are a few per user: one more is a 429 with Retry-After, and fetches nothing', async () => {
    const reader = team.member('read');
    const fourIn = new Promise<void>((resolve) => {
      heldArrived = () => {
        if (held.length === 4) resolve();
      };
    });
    const first = [1, 2, 3, 4].map((n) => embed(reader, `${provider.url}/slow/${n}`));
    await fourIn;
    provider.hits.length = 0;
    const refused = await embed(reader, `${provider.url}/slow/5`);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json().error.message).toMatch(/^Too many embeds being fetched at once: you already have 4 running/);
    expect(provider.hits).toEqual([]);
    // Another user is not held back by them.
    const other = embed(team.admin, `${provider.url}/slow/6`);
    await new Promise<void>((resolve) => {
      heldArrived = resolve;
    });
    for (const release of held.splice(0)) release();
    for (const answer of await Promise.all([...first, other])) {
      expect(answer.json()).toEqual({ type: 'link', title: 'Slow', site: '127.0.0.1' });
    }
  });
});

describe('embeds of our own addresses', () => {
  it('are the content the caller may read, and a 404 for what they may not', async () => {
    const address = `${PUBLIC_URL}/app/o/${team.organization.id}/s/${space.id}/${guide.path}`;
    const res = await embed(team.member('read'), address);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ type: 'link', title: 'Guide', site: 'Handbook' });
    expectNewestSpecResponse('getEmbedByUrl', 200, res.json());
    expect((await embed(outsider.admin, address)).statusCode).toBe(404);
    // An address of the service that shows no content is never fetched.
    expect((await embed(team.admin, `${PUBLIC_URL}/docs`)).statusCode).toBe(404);
    expect(await cachedRows(address)).toEqual([]);
  });

  it('within a space: for members with a role on it, through the newest client too', async () => {
    const url = `${provider.url}/article`;
    const res = await embedInSpace(team.member('read'), space.id, url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ type: 'link', title: 'An article' });
    expectNewestSpecResponse('getEmbedByUrlInSpace', 200, res.json());

    const endpoint = await listen(t.app);
    const { data } = await newestOfficialClient(endpoint, team.admin.token).spaces.getEmbedByUrlInSpace(space.id, {
      url,
    });
    expect(data).toEqual(res.json());

    provider.hits.length = 0;
    const refused = await embedInSpace(outsider.admin, space.id, `${provider.url}/video/2`);
    expect(refused.statusCode).toBe(404);
    expect(provider.hits).toEqual([]);
  });
});

describe('bad input', () => {
  it('is a 400 naming the rule, a missing token a 401, a token without space:read a 403', async () => {
    for (const url of ['nope', 'ftp://example.com/x', 'data:text/html,hi']) {
      const res = await embed(team.admin, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.message).toMatch(/^url must be/);
    }
    expect((await embed(team.admin, `https://example.com/${'a'.repeat(2048)}`)).statusCode).toBe(400);
    expect((await embed(undefined, 'https://example.com/')).statusCode).toBe(401);
    const narrow = await t.factory.token(team.admin.user.id, { scopes: ['site:read'] });
    expect((await embed(narrow, 'https://example.com/')).statusCode).toBe(403);
    expect(
      await t.db.selectFrom('url_embeds').select('url').where('url', 'like', 'https://example.com%').execute(),
    ).toEqual([]);
  });
});

describe('reading a page’s head', () => {
  it('reads only the head, and no input makes it backtrack: unclosed tags, a head past its bound', () => {
    const base = new URL('https://example.com/a');
    const unclosed = `<link rel="alternate" ${'x'.repeat(MAX_HEAD_CHARS)}`;
    expect(readPageHead(unclosed, base)).toEqual({});
    const many = '<link rel=icon '.repeat(50_000);
    expect(readPageHead(many, base)).toEqual({});
    const late = `${' '.repeat(MAX_HEAD_CHARS)}<title>Too late</title>`;
    expect(readPageHead(late, base)).toEqual({});
    expect(readPageHead('<head></head><body><title>In the body</title>', base)).toEqual({});
    // Attributes that never close, one after another inside a tag.
    expect(readPageHead(`<link ${'x="'.repeat(600)}>`, base)).toEqual({});
    expect(readPageHead(`<meta ${'a'.repeat(2000)}>`, base)).toEqual({});
  });

  it('knows a few providers by their hosts, and asks them for JSON', () => {
    expect(knownProviderEndpoint(new URL('https://youtu.be/abc'))).toBe(
      'https://www.youtube.com/oembed?url=https%3A%2F%2Fyoutu.be%2Fabc&format=json',
    );
    expect(knownProviderEndpoint(new URL('https://example.com/watch'))).toBeUndefined();
  });
});
