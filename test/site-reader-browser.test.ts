import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { freePort, useTestApp } from './support/app.js';
import { describeInBrowser, expectNoSeriousViolations, screenshot, useBrowser } from './support/browser.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;

const GUIDE_MARKDOWN = [
  'Everything about the **gizmo**.',
  '',
  '## Install',
  '',
  '```js',
  "const gizmo = require('gizmo'); // hums",
  '```',
  '',
  '## Configure',
  '',
  '| Setting | Default |',
  '| --- | --- |',
  '| speed | 3 |',
  '',
  '{% hint style="info" %}',
  'The gizmo hums while it works.',
  '{% endhint %}',
  '',
].join('\n');

describeInBrowser('the published reader in a browser', () => {
  const t = useTestApp({ config: { publicUrl: base } });
  const b = useBrowser();
  const api = contentApi(() => t.app);
  let admin: Account;
  let organizationId: string;
  let context: BrowserContext | undefined;

  async function call(method: 'POST' | 'PUT', url: string, payload?: object) {
    const res = await t.app.inject({
      method,
      url: `/v1${url}`,
      headers: admin.headers,
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as Record<string, unknown>;
  }

  async function site(visibility: string) {
    const space = await api.createSpace(admin, organizationId, { title: 'Handbook' });
    await api.change(admin, space.id, [
      {
        operation: 'insert_page',
        ref: 'a',
        title: 'Welcome',
        document: { markdown: 'Start here. Then read the guide.' },
      },
      { operation: 'insert_page', ref: 'g', title: 'Gizmo guide', document: { markdown: GUIDE_MARKDOWN } },
      { operation: 'insert_page', into: 'g', title: 'Tuning', document: { markdown: 'Turn the knob.' } },
    ]);
    const created = await call('POST', `/orgs/${organizationId}/sites`, { title: 'Gizmo Docs', visibility });
    const id = created.id as string;
    await call('POST', `/orgs/${organizationId}/sites/${id}/site-spaces`, { spaceId: space.id });
    await call('POST', `/orgs/${organizationId}/sites/${id}/publish`);
    return { id, address: `${base}/s/${id}` };
  }

  async function open(url: string, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    context = await b.browser.newContext(options);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    (page as Page & { errors?: string[] }).errors = errors;
    await page.goto(url);
    return page;
  }

  beforeAll(async () => {
    await t.app.listen({ port, host: '127.0.0.1' });
    const team = await t.factory.team();
    admin = team.admin;
    organizationId = team.organization.id;
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  it('opens a published site and follows its navigation, light and dark, with no serious accessibility violation', async () => {
    const { address } = await site('public');
    const page = await open(address);
    expect(await page.title()).toBe('Welcome | Gizmo Docs');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome');
    await expectNoSeriousViolations(page);
    await screenshot(page, 'reader home light');

    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: 'Gizmo guide', exact: true })
      .click();
    await page.waitForURL(`${address}/handbook/gizmo-guide`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Gizmo guide');
    // The table of contents leads to the headings; the code is highlighted on the server.
    const toc = page.getByRole('complementary', { name: 'On this page' });
    await expect(toc.getByRole('link').allTextContents()).resolves.toEqual(['Install', 'Configure']);
    expect(await page.locator('pre code .hljs-keyword').textContent()).toBe('const');
    await expectNoSeriousViolations(page);
    await screenshot(page, 'reader content light');

    await page.getByRole('link', { name: 'Next Tuning' }).click();
    await page.waitForURL(`${address}/handbook/gizmo-guide/tuning`);

    // Dark mode: the switch is a form, and the choice is remembered from page to page.
    await page.getByRole('button', { name: 'Dark' }).click();
    await page.waitForURL(`${address}/handbook/gizmo-guide/tuning`);
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(background).toBe('rgb(13, 17, 23)');
    await page.goto(`${address}/handbook/gizmo-guide`);
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await expectNoSeriousViolations(page);
    await screenshot(page, 'reader content dark');
    await page.goto(address);
    await screenshot(page, 'reader home dark');
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
  });

  it('searches the site from the search box and opens a result', async () => {
    const { address } = await site('public');
    const page = await open(address);
    await page.getByRole('searchbox', { name: 'Search Gizmo Docs' }).fill('knob');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/~\/search\?q=knob$/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Results for “knob”');
    await page.getByRole('link', { name: 'Tuning' }).click();
    await page.waitForURL(`${address}/handbook/gizmo-guide/tuning`);
    await expectNoSeriousViolations(page);
  });

  it('works without JavaScript', async () => {
    const { address } = await site('public');
    const page = await open(`${address}/handbook/gizmo-guide`, { javaScriptEnabled: false });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Gizmo guide');
    await page.getByRole('button', { name: 'Dark' }).click();
    await page.waitForURL(`${address}/handbook/gizmo-guide`);
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.getByRole('searchbox').fill('gizmo');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/~\/search\?q=gizmo$/);
    expect(await page.getByRole('link', { name: 'Gizmo guide' }).count()).toBeGreaterThan(0);
  });

  it('refuses a share-link site without its key, and opens it once the link is followed', async () => {
    const { id, address } = await site('share-link');
    const refused = await open(address);
    expect(await refused.title()).toBe('Site not found');
    await context!.close();
    const link = await call('POST', `/orgs/${organizationId}/sites/${id}/share-links`, { name: 'Friends' });
    const page = await open((link.urls as { published: string }).published);
    await page.waitForURL(address);
    expect(await page.title()).toBe('Welcome | Gizmo Docs');
    // The key lives in a cookie now: the next page opens without it in the address.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tuning' }).click();
    await page.waitForURL(`${address}/handbook/gizmo-guide/tuning`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Tuning');
  });
});
