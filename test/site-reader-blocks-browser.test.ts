import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, useTestApp } from './support/app.js';
import { describeInBrowser, expectNoSeriousViolations, screenshot, useBrowser } from './support/browser.js';
import { publishEveryBlockSite } from './support/every-block-site.js';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;

describeInBrowser('a page of every GitBook block in a browser', () => {
  const t = useTestApp({ config: { publicUrl: base } });
  const b = useBrowser();
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    await t.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('reads well, light and dark, wide and narrow, with no serious accessibility violation', async () => {
    const team = await t.factory.team();
    const { pageUrl } = await publishEveryBlockSite(t.app, team.admin, team.organization.id);
    // The page runs no script of its own (its policy allows none); axe-core needs the browser's to check it.
    context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}${pageUrl}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Every block');
    const shown = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => getComputedStyle(element).display !== 'none');
    // The light image shows in the light theme, the dark one in the dark theme.
    expect(await shown('.images .image-light')).toBe(true);
    expect(await shown('.images .image-dark')).toBe(false);
    // Columns sit side by side in a wide content column.
    const [left, right] = await page
      .locator('.columns .column')
      .evaluateAll((columns) => columns.map((column) => column.getBoundingClientRect()));
    expect(Math.abs(left!.top - right!.top)).toBeLessThan(1);
    expect(await page.locator('math').count()).toBe(2);
    await expectNoSeriousViolations(page);
    await screenshot(page, 'reader every block light');

    await page.getByRole('button', { name: 'Dark' }).click();
    await page.waitForURL(`${base}${pageUrl}`);
    expect(await shown('.images .image-light')).toBe(false);
    expect(await shown('.images .image-dark')).toBe(true);
    await expectNoSeriousViolations(page);
    await screenshot(page, 'reader every block dark');

    // On a phone the columns stack.
    await page.setViewportSize({ width: 390, height: 844 });
    const [top, below] = await page
      .locator('.columns .column')
      .evaluateAll((columns) => columns.map((column) => column.getBoundingClientRect()));
    expect(below!.top).toBeGreaterThan(top!.bottom - 1);
    await screenshot(page, 'reader every block narrow');
  });
});
