import type { Element, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, testConfig } from './support/app.js';
import { TestDnsServer } from './support/dns-server.js';
import { contentApi } from './support/content.js';
import { expectSpecResponse } from './support/spec.js';
import type { Account } from './support/factory.js';

// Custom hostnames are proven by a TXT record, looked up on this server.
const dns = new TestDnsServer();
beforeAll(() => dns.start());
afterAll(() => dns.stop());
const t = useTestApp({ config: () => ({ hostnames: { reserved: [], dnsServers: [dns.address] } }) });
const api = contentApi(() => t.app);
const PUBLIC_URL = testConfig('').publicUrl;

interface Team {
  admin: Account;
  organizationId: string;
}

async function call(account: Account, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) {
  return t.app.inject({ method, url: `/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });
}

/** A space with a few pages: an introduction, a guide with a child, a hidden page and a group. */
async function spaceWithPages(team: Team, title: string) {
  const space = await api.createSpace(team.admin, team.organizationId, { title });
  await api.change(team.admin, space.id, [
    {
      operation: 'insert_page',
      ref: 'intro',
      title: 'Introduction',
      document: {
        markdown:
          'Welcome to **Acme**.\n\n## Install\n\n```js\nconst acme = require("acme");\n```\n\n{% hint style="warning" %}\nMind the gap.\n{% endhint %}\n\n| Name | Value |\n| --- | ---: |\n| a | 1 |\n\nSee [the guide](guide.md).\n',
      },
    },
    {
      operation: 'insert_page',
      ref: 'guide',
      title: 'Guide',
      document: { markdown: 'The guide.\n\n## Steps\n\nDo it.' },
    },
    { operation: 'insert_page', into: 'guide', title: 'Advanced', document: { markdown: 'Deep things.' } },
  ]);
  return space;
}

async function publishedSite(team: Team, body: object = {}) {
  const created = await call(team.admin, 'POST', `/orgs/${team.organizationId}/sites`, { title: 'Acme Docs', ...body });
  expect(created.statusCode, created.body).toBe(201);
  const site = created.json() as { id: string };
  const space = await spaceWithPages(team, 'Handbook');
  const added = await call(team.admin, 'POST', `/orgs/${team.organizationId}/sites/${site.id}/site-spaces`, {
    spaceId: space.id,
  });
  expect(added.statusCode, added.body).toBe(201);
  const published = await call(team.admin, 'POST', `/orgs/${team.organizationId}/sites/${site.id}/publish`);
  expect(published.statusCode, published.body).toBe(200);
  return { site, space, siteSpace: added.json() as { id: string; path: string; urls: { published?: string } } };
}

/** Every element inside the page's `within` elements, as a browser would parse the page. */
function elementsOf(html: string, within: string): Element[] {
  const found: Element[] = [];
  const walk = (node: Nodes, inside: boolean) => {
    const entered = inside || (node.type === 'element' && node.tagName === within);
    if (node.type === 'element' && entered) found.push(node);
    if ('children' in node) for (const child of node.children) walk(child, entered);
  };
  walk(fromHtml(html), false);
  return found;
}

const read = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

let team: Team;
beforeAll(async () => {
  const { admin, organization } = await t.factory.team();
  team = { admin, organizationId: organization.id };
});

describe('the published reader', () => {
  it('shows a public site’s pages as HTML, with navigation, highlighted code, hints, tables and a table of contents', async () => {
    const { site, siteSpace } = await publishedSite(team);
    const home = await read(`/s/${site.id}`);
    expect(home.statusCode, home.body).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = home.body;
    expect(html).toMatch(/^<!doctype html><html lang="en" data-theme="light">/);
    expect(html).toContain('<title>Introduction | Acme Docs</title>');
    expect(html).toContain('<h1>Introduction</h1>');
    expect(html).toContain('<strong>Acme</strong>');
    expect(html).toContain('<span class="hljs-keyword">const</span>');
    expect(html).toContain('<div class="hint hint-warning" role="note" aria-label="Warning">');
    expect(html).toContain('<td class="align-right">1</td>');
    expect(html).toContain('<a href="#install">Install</a>');
    // The sidebar lists the pages, the current one marked; the guide's child is listed under it.
    const base = `${PUBLIC_URL}/s/${site.id}/${siteSpace.path}`;
    expect(html).toContain(`<a href="${base}/introduction" aria-current="page">Introduction</a>`);
    expect(html).toContain(`<a href="${base}/guide/advanced">Advanced</a>`);
    // A link to another page of the space leads to its reader address.
    expect(html).toContain(`<a href="${base}/guide">the guide</a>`);
    expect(html).not.toContain('noindex');
    expect(home.headers['content-security-policy']).toContain("default-src 'none'");
    expect(home.headers['content-security-policy']).not.toContain('script-src');

    const advanced = await read(`/s/${site.id}/${siteSpace.path}/guide/advanced`);
    expect(advanced.statusCode).toBe(200);
    expect(advanced.body).toContain('<h1>Advanced</h1>');
    expect(advanced.body).toContain('Previous');

    // The site's and site space's published addresses lead to these pages.
    const listed = await call(team.admin, 'GET', `/orgs/${team.organizationId}/sites/${site.id}/site-spaces`);
    const published = (listed.json() as { items: Array<{ urls: { published?: string } }> }).items[0]!.urls.published!;
    expect(published).toBe(base);
    expect((await read(new URL(published).pathname)).statusCode).toBe(200);
    const siteRead = await call(team.admin, 'GET', `/orgs/${team.organizationId}/sites/${site.id}`);
    expect((await read(new URL(siteRead.json().urls.published as string).pathname)).statusCode).toBe(200);
  });

  it('answers 304 to a browser that has the page, and serves its stylesheets with long-lived ETags', async () => {
    const { site } = await publishedSite(team);
    const first = await read(`/s/${site.id}`);
    const again = await read(`/s/${site.id}`, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    const css = await read(`/s/${site.id}/~/reader.css`);
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await read(`/s/${site.id}/~/reader.css`, { 'if-none-match': css.headers.etag as string })).statusCode).toBe(
      304,
    );
  });

  it('answers refused input with a page, not the API’s JSON', async () => {
    const { site } = await publishedSite(team);
    const refused = await read(`/s/${site.id}?q=${'a'.repeat(9000)}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.body).toContain('<h1>This address cannot be read</h1>');
    expect(refused.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
  });

  it('is not there while the site is unpublished, nor for an unknown site', async () => {
    const created = await call(team.admin, 'POST', `/orgs/${team.organizationId}/sites`, { title: 'Draft' });
    const site = created.json() as { id: string };
    expect((await read(`/s/${site.id}`)).statusCode).toBe(404);
    expect((await read('/s/no-such-site')).statusCode).toBe(404);
  });

  it('serves pages as markdown, llms.txt, llms-full.txt, a sitemap and robots.txt', async () => {
    const { site, siteSpace } = await publishedSite(team);
    const base = `/s/${site.id}/${siteSpace.path}`;
    const markdown = await read(`${base}/guide.md`);
    expect(markdown.statusCode).toBe(200);
    expect(markdown.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(markdown.body).toBe('# Guide\n\nThe guide.\n\n## Steps\n\nDo it.\n');
    const llms = await read(`/s/${site.id}/llms.txt`);
    expect(llms.body).toContain(`# Acme Docs\n\n## Handbook\n\n- [Introduction](${PUBLIC_URL}${base}/introduction.md)`);
    expect((await read(`/s/${site.id}/llms-full.txt`)).body).toContain('# Advanced\n\nDeep things.\n');
    const sitemap = await read(`/s/${site.id}/sitemap.xml`);
    expect(sitemap.body).toContain(`<loc>${PUBLIC_URL}${base}/guide/advanced</loc>`);
    expect((await read(`/s/${site.id}/robots.txt`)).body).toBe(
      `User-agent: *\nAllow: /\n\nSitemap: ${PUBLIC_URL}/s/${site.id}/sitemap.xml\n`,
    );
  });

  it('marks an unlisted site noindex and keeps it out of sitemaps', async () => {
    const { site } = await publishedSite(team, { visibility: 'unlisted' });
    const home = await read(`/s/${site.id}`);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<meta name="robots" content="noindex">');
    expect((await read(`/s/${site.id}/sitemap.xml`)).body).not.toContain('<url>');
    expect((await read(`/s/${site.id}/robots.txt`)).body).toBe('User-agent: *\nDisallow: /\n');
  });

  it('opens a share-link site with an active link’s key, once in the address and then from a cookie', async () => {
    const { site } = await publishedSite(team, { visibility: 'share-link' });
    expect((await read(`/s/${site.id}`)).statusCode).toBe(404);
    expect((await read(`/s/${site.id}?share=${'x'.repeat(24)}`)).statusCode).toBe(404);
    const link = await call(team.admin, 'POST', `/orgs/${team.organizationId}/sites/${site.id}/share-links`, {
      name: 'Partners',
    });
    const key = new URL(link.json().urls.published).searchParams.get('share')!;
    const first = await read(`/s/${site.id}?share=${key}`);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`/s/${site.id}`);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(
      new RegExp(`^quire_share_${site.id}=${key}; Max-Age=\\d+; Path=/s/${site.id}; HttpOnly; SameSite=Lax$`),
    );
    const page = await read(`/s/${site.id}`, { cookie: cookie.split(';')[0]! });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<meta name="robots" content="noindex">');

    // Turned off, the link opens nothing, cookie or not.
    await call(team.admin, 'PATCH', `/orgs/${team.organizationId}/sites/${site.id}/share-links/${link.json().id}`, {
      active: false,
    });
    expect((await read(`/s/${site.id}`, { cookie: cookie.split(';')[0]! })).statusCode).toBe(404);
  });

  it('opens a visitor-auth site to a token signed with the site’s key, and sends others to its sign-in', async () => {
    const { site } = await publishedSite(team, { visibility: 'visitor-auth' });
    const refused = await read(`/s/${site.id}`);
    expect(refused.statusCode).toBe(401);
    const auth = await call(team.admin, 'PATCH', `/orgs/${team.organizationId}/sites/${site.id}/publishing/auth`, {
      backend: 'custom',
      fallbackURL: 'https://login.example.com/docs',
    });
    expect(auth.statusCode, auth.body).toBe(200);
    const key = auth.json().privateKey as string;
    const toSignIn = await read(`/s/${site.id}/guide`);
    expect(toSignIn.statusCode).toBe(302);
    expect(toSignIn.headers.location).toBe(
      `https://login.example.com/docs?location=${encodeURIComponent(`${PUBLIC_URL}/s/${site.id}/guide`)}`,
    );

    const sign = (secret: string) =>
      new SignJWT({ plan: 'pro' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret));
    expect((await read(`/s/${site.id}?jwt_token=${await sign('not the key')}`)).statusCode).toBe(302);
    const token = await sign(key);
    const first = await read(`/s/${site.id}?jwt_token=${token}`);
    expect(first.statusCode).toBe(303);
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toBe(`quire_visitor_${site.id}=${token}`);
    const page = await read(`/s/${site.id}`, { cookie });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Introduction</h1>');
  });

  it('never lets a script, an event handler or a javascript: link through from content', async () => {
    const space = await api.createSpace(team.admin, team.organizationId, { title: 'Hostile' });
    await api.change(team.admin, space.id, [
      {
        operation: 'insert_page',
        title: 'Tricks',
        document: {
          markdown:
            '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[click](javascript:alert(3)) [data](data:text/html,hi) [ok](https://example.com)\n\n![i](javascript:alert(4))\n\n<a href="javascript:alert(5)" onclick="alert(6)">raw</a>\n',
        },
      },
    ]);
    const created = await call(team.admin, 'POST', `/orgs/${team.organizationId}/sites`, { title: 'Tricky' });
    const site = created.json() as { id: string };
    await call(team.admin, 'POST', `/orgs/${team.organizationId}/sites/${site.id}/site-spaces`, { spaceId: space.id });
    await call(team.admin, 'POST', `/orgs/${team.organizationId}/sites/${site.id}/publish`);
    const page = await read(`/s/${site.id}`);
    expect(page.statusCode).toBe(200);
    // Written as raw HTML, a script is shown as code; as links and images, the unsafe ones are left out.
    const elements = elementsOf(page.body, 'article');
    expect(elements.filter((element) => element.tagName === 'script')).toEqual([]);
    const attributes = elements.flatMap((element) => Object.entries(element.properties ?? {}));
    expect(attributes.filter(([name]) => /^on/i.test(name))).toEqual([]);
    expect(attributes.filter(([, value]) => /^\s*(?:javascript|data|vbscript):/i.test(String(value)))).toEqual([]);
    expect(page.body).toContain('<a href="https://example.com">ok</a>');
    // The script stays HTML the reader shows as code; the <img> is GitBook's image block, without its handler.
    expect(page.body).toContain('<span class="hljs-name">script</span>');
    expect(page.body).toContain('<figure><img src="x" alt="" loading="lazy" decoding="async"></figure>');
  });
});

describe('adaptive content in the reader', () => {
  const sign = (secret: string, claims: object) =>
    new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));

  /** A visitor-auth site with a "Basics" section for all and a "Pro" section for visitors whose token says pro. */
  async function adaptiveSite() {
    const org = `/orgs/${team.organizationId}`;
    const created = await call(team.admin, 'POST', `${org}/sites`, { title: 'Tiers', visibility: 'visitor-auth' });
    const site = created.json() as { id: string };
    const schema = await call(team.admin, 'PUT', `${org}/sites/${site.id}/adaptive-schema`, {
      jsonSchema: {
        type: 'object',
        properties: {
          pro: { type: 'boolean', description: 'A pro subscriber' },
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
    expect(schema.statusCode, schema.body).toBe(200);
    await call(team.admin, 'PATCH', `${org}/sites/${site.id}`, { adaptiveContent: { enabled: true } });
    const basics = await api.createSpace(team.admin, team.organizationId, { title: 'Basics' });
    await api.change(team.admin, basics.id, [
      { operation: 'insert_page', title: 'Start', document: { markdown: 'Everyone reads this.' } },
    ]);
    const pro = await api.createSpace(team.admin, team.organizationId, { title: 'Pro' });
    await api.change(team.admin, pro.id, [
      { operation: 'insert_page', title: 'Turbo', document: { markdown: 'The turbocharger is for pro visitors.' } },
    ]);
    const beta = await api.createSpace(team.admin, team.organizationId, { title: 'Beta' });
    await api.change(team.admin, beta.id, [
      { operation: 'insert_page', title: 'Preview', document: { markdown: 'Unreleased widgets.' } },
    ]);
    const section = async (spaceId: string, path: string, condition: string | null) => {
      const added = await call(team.admin, 'POST', `${org}/sites/${site.id}/sections`, { spaceId });
      expect(added.statusCode, added.body).toBe(201);
      const id = (added.json() as { id: string }).id;
      const updated = await call(team.admin, 'PATCH', `${org}/sites/${site.id}/sections/${id}`, { path, condition });
      expect(updated.statusCode, updated.body).toBe(200);
    };
    await section(basics.id, 'basics', null);
    await section(pro.id, 'pro', 'visitor.claims.pro == true');
    await section(beta.id, 'beta', 'visitor.claims.unsigned.beta == true');
    await call(team.admin, 'POST', `${org}/sites/${site.id}/publish`);
    const auth = await call(team.admin, 'GET', `${org}/sites/${site.id}/publishing/auth`);
    return { site, key: auth.json().privateKey as string };
  }

  async function visit(siteId: string, token: string, extra = '') {
    const first = await read(`/s/${siteId}?jwt_token=${token}${extra}`);
    expect(first.statusCode).toBe(303);
    const cookies = ([] as string[]).concat(first.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]);
    return (url: string) => read(url, { cookie: cookies.join('; ') });
  }

  it('leaves out what a visitor’s claims do not open: in the navigation, search, llms.txt and by address', async () => {
    const { site, key } = await adaptiveSite();
    const basic = await visit(site.id, await sign(key, { pro: false }));
    const home = await basic(`/s/${site.id}`);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('>Basics</a>');
    expect(home.body).not.toContain('>Pro</a>');
    expect(home.body).not.toContain('>Beta</a>');
    expect((await basic(`/s/${site.id}/pro/pro/turbo`)).statusCode).toBe(404);
    expect((await basic(`/s/${site.id}/pro/pro/turbo.md`)).statusCode).toBe(404);
    expect((await basic(`/s/${site.id}/~/search?q=turbocharger`)).body).toContain('Nothing in this site matches.');
    expect((await basic(`/s/${site.id}/llms.txt`)).body).not.toContain('Turbo');

    const pro = await visit(site.id, await sign(key, { pro: true }));
    expect((await pro(`/s/${site.id}`)).body).toContain('>Pro</a>');
    const turbo = await pro(`/s/${site.id}/pro/pro/turbo`);
    expect(turbo.statusCode).toBe(200);
    expect(turbo.body).toContain('The turbocharger is for pro visitors.');
    expect((await pro(`/s/${site.id}/~/search?q=turbocharger`)).body).toContain('>Turbo</a>');
    expect((await pro(`/s/${site.id}/llms.txt`)).body).toContain('[Turbo]');

    // An unsigned claim is the visitor's own say: set in the address once, then kept.
    const tester = await visit(site.id, await sign(key, {}), '&visitor.beta=true');
    const preview = await tester(`/s/${site.id}/beta/beta/preview`);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('Unreleased widgets.');
    expect((await tester(`/s/${site.id}`)).body).not.toContain('>Pro</a>');
  });
});

describe('a site at its own hostname', () => {
  it('is read at it: its pages at the root, its links and published address there, its cookies for the whole host', async () => {
    const { site } = await publishedSite(team, { visibility: 'share-link' });
    const org = `/orgs/${team.organizationId}`;
    const named = await call(team.admin, 'PATCH', `${org}/sites/${site.id}`, { hostname: 'Docs.Example.com.' });
    expect(named.statusCode, named.body).toBe(200);
    expectSpecResponse('updateSiteById', 200, named.json());
    // Pending until its TXT record holds the token: not yet the site's address.
    expect(named.json()).toMatchObject({ hostname: 'docs.example.com', hostnameStatus: 'pending' });
    expect(named.json().urls.published).not.toContain('docs.example.com');
    const claim = await t.app.inject({
      method: 'GET',
      url: '/v1/custom-hostnames/docs.example.com',
      headers: team.admin.headers,
    });
    const record = claim.json().verification as { name: string; value: string };
    expect(record.name).toBe('_quire-challenge.docs.example.com');
    dns.setTxt(record.name, [record.value]);
    const revalidated = await t.app.inject({
      method: 'PATCH',
      url: '/v1/custom-hostnames/docs.example.com',
      headers: team.admin.headers,
    });
    expect(revalidated.statusCode).toBe(204);
    expect((await call(team.admin, 'GET', `${org}/sites/${site.id}`)).json()).toMatchObject({
      hostname: 'docs.example.com',
      hostnameStatus: 'live',
      urls: { published: 'http://docs.example.com' },
    });

    // No token, a stranger, an editor: refused, and the site keeps its hostname.
    const attempt = { hostname: 'x.example.com' };
    const anonymous = await t.app.inject({ method: 'PATCH', url: `/v1${org}/sites/${site.id}`, payload: attempt });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: { code: 401, message: expect.any(String) } });
    const stranger = await t.factory.account();
    expect((await call(stranger, 'PATCH', `${org}/sites/${site.id}`, attempt)).statusCode).toBe(404);
    const editor = await t.factory.account();
    await t.factory.member(team.organizationId, editor.user.id, 'edit');
    const refused = await call(editor, 'PATCH', `${org}/sites/${site.id}`, attempt);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: { code: 403, message: expect.any(String) } });
    const stored = await t.db
      .selectFrom('sites')
      .select('hostname')
      .where('id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(stored.hostname).toBe('docs.example.com');

    // Another site may claim it too, but its claim stays pending while the record names this one's.
    const other = await publishedSite(team);
    const claimedToo = await call(team.admin, 'PATCH', `${org}/sites/${other.site.id}`, {
      hostname: 'DOCS.example.com',
    });
    expect(claimedToo.statusCode).toBe(200);
    expect(claimedToo.json()).toMatchObject({ hostname: 'docs.example.com', hostnameStatus: 'pending' });
    for (const hostname of ['localhost', 'a..b.com', '10.0.0.1', 'docs.test', 'x'.repeat(513)]) {
      expect(
        (await call(team.admin, 'PATCH', `${org}/sites/${other.site.id}`, { hostname })).statusCode,
        hostname,
      ).toBe(400);
    }

    const host = { host: 'docs.example.com' };
    const link = await call(team.admin, 'POST', `${org}/sites/${site.id}/share-links`, { name: 'Partners' });
    const published = link.json().urls.published as string;
    expect(published).toMatch(/^http:\/\/docs\.example\.com\?share=/);
    const key = new URL(published).searchParams.get('share')!;
    const first = await read(`/?share=${key}`, host);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/');
    expect(String(first.headers['set-cookie'])).toContain('; Path=/; HttpOnly');
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    const home = await read('/', { ...host, cookie });
    expect(home.statusCode, home.body).toBe(200);
    expect(home.body).toContain('<h1>Introduction</h1>');
    expect(home.body).toContain('<a href="http://docs.example.com/handbook/guide">Guide</a>');
    expect(home.body).toContain('<link rel="stylesheet" href="http://docs.example.com/~/reader.css?v=');
    expect((await read('/handbook/guide/advanced', { ...host, cookie })).body).toContain('<h1>Advanced</h1>');
    expect((await read('/~/reader.css', host)).statusCode).toBe(200);

    // Any other host is the service as before; a hostname taken away reads nothing any more.
    expect((await read('/', { host: 'elsewhere.example.com', accept: 'application/json' })).json()).toMatchObject({
      name: 'quire',
    });
    expect(
      (await call(team.admin, 'PATCH', `${org}/sites/${site.id}`, { hostname: null })).json().hostname,
    ).toBeUndefined();
    expect((await read('/', { ...host, accept: 'application/json' })).json()).toMatchObject({ name: 'quire' });
  });
});
