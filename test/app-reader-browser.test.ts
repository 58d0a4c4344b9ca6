import type { BrowserContext } from 'playwright-core';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { freePort, useTestApp } from './support/app.js';
import { describeInBrowser, expectNoSeriousViolations, screenshot, useBrowser } from './support/browser.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;

describeInBrowser('the app reader in a browser', () => {
  const t = useTestApp({ config: { publicUrl: base } });
  const b = useBrowser();
  const api = contentApi(() => t.app);
  let admin: Account;
  let spaceAppUrl: string;
  let changeRequestAppUrl: string;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    await t.app.listen({ port, host: '127.0.0.1' });
    const team = await t.factory.team();
    admin = team.admin;
    const created = await api.createSpace(admin, team.organization.id, { title: 'Runbook' });
    await api.change(admin, created.id, [
      { operation: 'insert_page', title: 'Alerts', document: { markdown: 'When the pager rings, **breathe**.' } },
      { operation: 'insert_page', title: 'Backups', document: { markdown: 'Nightly, to two places.' } },
    ]);
    spaceAppUrl = (await api.read(admin, `/v1/spaces/${created.id}`)).json().urls.app as string;
    const changeRequestId = await api.openChangeRequest(admin, created.id, 'Add restores');
    await api.writeContent(admin, created.id, changeRequestId, [
      { operation: 'insert_page', title: 'Restores', document: { markdown: 'Practise them monthly.' } },
    ]);
    changeRequestAppUrl = (await api.read(admin, `/v1/spaces/${created.id}/change-requests/${changeRequestId}`)).json()
      .urls.app as string;
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  it('signs a member in with a token, follows urls.app to the space and a change request, and signs out', async () => {
    context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(spaceAppUrl);
    // Sent to sign in, and brought back to the space after.
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in');
    await expectNoSeriousViolations(page);
    await page.getByLabel('API token').fill(admin.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(spaceAppUrl);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Alerts');
    await expectNoSeriousViolations(page);
    await screenshot(page, 'app space');

    await page.goto(changeRequestAppUrl);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Restores new' }).click();
    await expect(page.getByRole('note').first().textContent()).resolves.toContain('It adds 1 page');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Restoresnew');
    await expectNoSeriousViolations(page);
    await screenshot(page, 'app change request');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/app`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in');
    await page.goto(spaceAppUrl);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in');
  });

  it('says a wrong token does not work, and keeps the visitor out', async () => {
    context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/app`);
    await page.getByLabel('API token').fill('quire_not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('That token does not work');
    await page.goto(spaceAppUrl);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in');
  });
});
