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
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
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
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('That token does not work');
    await page.goto(spaceAppUrl);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in');
  });

  it('lets a person set a password, sign in with it from the keyboard, and see their sessions', async () => {
    const person = await t.factory.account({ email: 'writer@example.test', name: 'Wren Writer' });
    context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/app`);
    await page.getByLabel('API token').fill(person.token);
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await page.getByRole('link', { name: 'Your account: password and sessions' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your account');
    await page.getByLabel('New password', { exact: true }).fill('quiet rooms and long shelves');
    await page.getByLabel('New password again').fill('quiet rooms and long shelves');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Your password is set');
    await expectNoSeriousViolations(page);
    await screenshot(page, 'app account');
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.waitForURL(`${base}/app`);

    // Keyboard only: the e-mail field, the password, then Enter.
    await page.getByLabel('E-mail address').focus();
    await page.keyboard.type('writer@example.test');
    await page.keyboard.press('Tab');
    await page.keyboard.type('quiet rooms and long shelves');
    await page.keyboard.press('Enter');
    // The home is at the sign-in page's own address: wait for its heading, not for an address.
    await page.getByRole('heading', { level: 1, name: 'Your organizations' }).waitFor();
    await page.goto(`${base}/app/account`);
    await expect(page.locator('main').textContent()).resolves.toContain('Signed in with the password (this session)');
  });

  it('writes a page with a hint in the editor, previews it live as it is typed, and saves it into a change request', async () => {
    context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(spaceAppUrl);
    await page.getByLabel('API token').fill(admin.token);
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await page.waitForURL(spaceAppUrl);

    // Keyboard only: Edit, then the content field.
    await page.getByRole('button', { name: 'Edit', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/change-requests\/\d+\/~\/edit\//);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Editing Alerts');
    const content = page.getByLabel('Content, in markdown');
    await content.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\n{% hint style="warning" %}\nCall the second on duty.\n{% endhint %}\n');
    // An image pasted from the clipboard is stored in the change request and named where the cursor is.
    await content.evaluate((element, png) => {
      const bytes = Uint8Array.from(atob(png), (character) => character.charCodeAt(0));
      const clipboard = new DataTransfer();
      clipboard.items.add(new File([bytes], 'diagram.png', { type: 'image/png' }));
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
    }, 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=');
    await page.waitForFunction(() =>
      (document.getElementById('quire-markdown') as HTMLTextAreaElement).value.includes('![diagram.png](/files/'),
    );
    // The live preview is the reader's renderer's: the hint comes back as the reader shows one.
    const live = page.locator('#quire-live-preview .live-body');
    await live.locator('.hint').waitFor();
    await expect(live.textContent()).resolves.toContain('Call the second on duty.');
    await expectNoSeriousViolations(page);
    await screenshot(page, 'app editor light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'app editor dark');

    // The draft is saved into the change request as the writer pauses: a reload (a closed tab) keeps it.
    await page.locator('#quire-autosave', { hasText: 'Draft saved in the change request' }).waitFor();
    await page.reload();
    await expect(page.getByLabel('Content, in markdown').inputValue()).resolves.toContain('Call the second on duty.');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.locator('p.notice').textContent()).resolves.toMatch(/^Saved in change request #\d+\.$/);
    await page.getByRole('link', { name: 'Read the page in the change request' }).click();
    await expect(page.locator('article').textContent()).resolves.toContain('Call the second on duty.');
  });
});
