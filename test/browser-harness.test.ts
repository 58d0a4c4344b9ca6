import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { SERVICE_VERSION } from '../src/ops/landing.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { describeInBrowser, expectNoSeriousViolations, screenshot, useBrowser } from './support/browser.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// The landing page at / is what exists of the service's HTML today; these
// tests prove the browser harness on it before the reader's pages arrive.
describeInBrowser('the landing page in a browser', () => {
  const t = useTestApp();
  const b = useBrowser();
  let baseUrl: string;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    baseUrl = await listen(t.app);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  async function openLandingPage(options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    context = await b.browser.newContext(options);
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}/`);
    expect(response?.status()).toBe(200);
    return page;
  }

  it('is served as HTML to a browser, titled with the version and linking to the API reference', async () => {
    context = await b.browser.newContext();
    const page = await context.newPage();
    // A refused inline style or script shows up here: the page has a strict Content-Security-Policy.
    const errors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    page.on('pageerror', (error) => void errors.push(error.message));

    const response = await page.goto(`${baseUrl}/`);
    expect(response?.status()).toBe(200);
    expect(await response?.request().headerValue('accept')).toMatch(/^text\/html,/);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await page.title()).toBe(`Quire ${SERVICE_VERSION}`);
    expect(await page.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe(`${PUBLIC_URL}/docs`);
    expect(errors).toEqual([]);
  });

  it('has no serious or critical accessibility violations', async () => {
    await expectNoSeriousViolations(await openLandingPage());
  });

  it('saves a full-page screenshot under test-output/screenshots', async () => {
    const file = await screenshot(await openLandingPage(), 'landing page');
    expect(file).toMatch(/test-output\/screenshots\/landing-page\.png$/);
    expect((await readFile(file)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  it('reads the same with JavaScript disabled', async () => {
    const page = await openLandingPage({ javaScriptEnabled: false });
    expect(await page.title()).toBe(`Quire ${SERVICE_VERSION}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Quire' }).isVisible()).resolves.toBe(true);
    const reference = page.getByRole('link', { name: 'API reference' });
    await expect(reference.isVisible()).resolves.toBe(true);
    expect(await reference.getAttribute('href')).toBe(`${PUBLIC_URL}/docs`);
  });
});
