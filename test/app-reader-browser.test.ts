import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { freePort, useTestApp } from './support/app.js';
import { describeInBrowser, expectNoSeriousViolations, screenshot, useBrowser } from './support/browser.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

const port = await freePort();

/** The editor's writing surface (CodeMirror over the markdown field), as a person finds it by its label. */
const writingSurface = (page: Page) => page.getByRole('textbox', { name: 'Content, in markdown' });
/** The markdown the form posts: the field the writing surface keeps equal to what is written. */
const writtenMarkdown = (page: Page) => page.locator('#quire-markdown').inputValue();

/** Selects `text` in the writing surface, as a person's mouse would: the editor takes the browser's selection. */
async function selectWritten(page: Page, text: string): Promise<void> {
  await writingSurface(page).evaluate((surface, wanted) => {
    const walker = document.createTreeWalker(surface, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(wanted);
      if (at === -1) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(range);
      return;
    }
    throw new Error(`No "${wanted}" in the editor`);
  }, text);
  await page.waitForFunction(() => document.getSelection()!.toString().length > 0);
}
const base = `http://127.0.0.1:${port}`;

describeInBrowser('the app reader in a browser', () => {
  const t = useTestApp({ config: { publicUrl: base } });
  const b = useBrowser();
  const api = contentApi(() => t.app);
  let admin: Account;
  let colleague: Account;
  let siteAddress: string;
  let spaceAppUrl: string;
  let changeRequestAppUrl: string;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    await t.app.listen({ port, host: '127.0.0.1' });
    const team = await t.factory.team(['edit']);
    admin = team.admin;
    colleague = team.member('edit');
    const created = await api.createSpace(admin, team.organization.id, { title: 'Runbook' });
    await api.change(admin, created.id, [
      { operation: 'insert_page', title: 'Alerts', document: { markdown: 'When the pager rings, **breathe**.' } },
      { operation: 'insert_page', title: 'Backups', document: { markdown: 'Nightly, to two places.' } },
    ]);
    const organizationId = team.organization.id;
    const site = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organizationId}/sites`,
      headers: admin.headers,
      payload: { title: 'Runbook', visibility: 'public' },
    });
    const siteId = site.json().id as string;
    for (const [url, payload] of [
      [`/v1/orgs/${organizationId}/sites/${siteId}/site-spaces`, { spaceId: created.id }],
      [`/v1/orgs/${organizationId}/sites/${siteId}/publish`, undefined],
    ] as const) {
      const answer = await t.app.inject({
        method: 'POST',
        url,
        headers: admin.headers,
        ...(payload ? { payload } : {}),
      });
      expect(answer.statusCode, answer.body).toBeLessThan(300);
    }
    siteAddress = `${base}/s/${siteId}`;
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
    const refused: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && refused.push(message.text())));
    await page.goto(spaceAppUrl);
    await page.getByLabel('API token').fill(admin.token);
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await page.waitForURL(spaceAppUrl);

    // Keyboard only: Edit, then the content field.
    await page.getByRole('button', { name: 'Edit', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/change-requests\/\d+\/~\/edit\//);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Editing Alerts');
    // The writing surface is CodeMirror over the hidden field, styled and scripted within the app's policy.
    await expect(page.locator('.cm-editor.markdown-editor').isVisible()).resolves.toBe(true);
    await expect(page.locator('#quire-markdown').isHidden()).resolves.toBe(true);
    await expect(page.locator('.cm-editor').evaluate((editor) => getComputedStyle(editor).display)).resolves.toBe(
      'flex',
    );
    const content = writingSurface(page);
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
    await expect(writtenMarkdown(page)).resolves.toContain('Call the second on duty.');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.locator('p.notice').textContent()).resolves.toMatch(/^Saved in change request #\d+\.$/);
    await page.getByRole('link', { name: 'Read the page in the change request' }).click();
    await expect(page.locator('article').textContent()).resolves.toContain('Call the second on duty.');
    // Nothing the page loads or does broke the app's Content-Security-Policy.
    expect(refused).toEqual([]);
  });

  it('writes from the block menu, keeps two writers’ words, moves the page, and takes it through review to the published site', async () => {
    context = await b.browser.newContext();
    const other = await b.browser.newContext();
    try {
      const signIn = async (browser: BrowserContext, account: Account, url: string) => {
        const page = await browser.newPage();
        await page.goto(url);
        await page.getByLabel('API token').fill(account.token);
        await page.getByRole('button', { name: 'Sign in with the token' }).click();
        await page.waitForURL(url);
        return page;
      };
      const writer = await signIn(context, admin, spaceAppUrl);
      await writer.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Backups' }).click();
      await writer.getByRole('button', { name: 'Edit', exact: true }).click();
      await writer.waitForURL(/\/change-requests\/\d+\/~\/edit\//);
      const editorUrl = writer.url();
      // The colleague opens the same page of the same change request, before the writer saves.
      const colleaguePage = await signIn(other, colleague, editorUrl);

      // Keyboard only: to the end of the content, then a hint and a table from the menu.
      const content = writingSurface(writer);
      await content.focus();
      await writer.keyboard.press('Control+End');
      await writer.getByRole('button', { name: 'Hint', exact: true }).focus();
      await writer.keyboard.press('Enter');
      await writer.getByRole('button', { name: 'Table', exact: true }).focus();
      await writer.keyboard.press('Enter');
      await selectWritten(writer, 'Write the hint here.');
      await writer.keyboard.type('Restore one a month, to be sure.');
      const live = writer.locator('#quire-live-preview .live-body');
      await live.locator('.hint', { hasText: 'Restore one a month' }).waitFor();
      await live.locator('table').waitFor();
      await expectNoSeriousViolations(writer);
      await screenshot(writer, 'app editor block menu');
      await writer.locator('#quire-autosave', { hasText: 'Draft saved in the change request' }).waitFor();

      // The colleague's draft started from the page before the writer's: it is not saved over the writer's ...
      const theirs = writingSurface(colleaguePage);
      await theirs.focus();
      await colleaguePage.keyboard.press('Control+End');
      await colleaguePage.keyboard.type('\n\nChecked by the second on duty.\n');
      await colleaguePage.getByRole('button', { name: 'Save', exact: true }).click();
      // ... but shown beside it, to merge by hand: both writers' words are kept.
      const conflict = colleaguePage.getByRole('region', { name: 'The page as saved since' });
      await expect(conflict.textContent()).resolves.toContain('Restore one a month');
      // Both added lines at the end: the editor holds the two merged, both kept there between marks. The colleague keeps both.
      const merged = await writtenMarkdown(colleaguePage);
      expect(merged).toMatch(
        /<<<<<<< yours\n[\s\S]*Checked by the second on duty\.[\s\S]*\n=======\n[\s\S]*Restore one a month/,
      );
      const keptBoth = merged
        .split('\n')
        .filter((line) => !['<<<<<<< yours', '=======', '>>>>>>> theirs'].includes(line))
        .join('\n');
      await writingSurface(colleaguePage).fill(keptBoth);
      await colleaguePage.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(colleaguePage.locator('p.notice').textContent()).resolves.toMatch(
        /^Saved in change request #\d+\.$/,
      );

      // The writer moves the page inside Alerts, then asks the colleague for a review.
      await writer.reload();
      await expect(writtenMarkdown(writer)).resolves.toContain('Checked by the second on duty.');
      await writer.getByLabel('Move this page').selectOption({ label: 'Alerts' });
      await writer.getByRole('radio', { name: 'inside it, at the end' }).check();
      await writer.getByRole('button', { name: 'Move', exact: true }).click();
      await writer.getByRole('link', { name: 'Read the page in the change request' }).click();
      // The new Restores page is dragged onto Alerts in the table of contents: it moves inside it.
      const pages = writer.getByRole('navigation', { name: 'Pages' });
      await pages
        .getByRole('link', { name: /^Restores/ })
        .dragTo(pages.getByRole('link', { name: /^Alerts(?: changed)?$/ }));
      await writer.waitForURL(/\/~\/move\//);
      await expect(writer.locator('p.notice').textContent()).resolves.toBe('Moved.');
      await expect(writer.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Editing Restores');
      await writer.getByRole('link', { name: 'Read the page in the change request' }).click();
      await writer.waitForURL(/\/alerts\/restores$/);
      await writer.getByRole('button', { name: 'Ask for review' }).click();
      await writer.getByLabel('Ask a member to review: their e-mail address').fill(colleague.user.email);
      await writer.getByRole('button', { name: 'Ask', exact: true }).click();
      const changeRequestUrl = writer.url();

      // The colleague selects words of the hint and comments on them, then approves.
      await colleaguePage.goto(changeRequestUrl);
      await colleaguePage
        .getByRole('navigation', { name: 'Pages' })
        .getByRole('link', { name: /^Backups/ })
        .click();
      const backupsInChangeRequest = colleaguePage.url();
      await colleaguePage
        .locator('main article .hint p')
        .first()
        .evaluate((paragraph) => {
          const range = document.createRange();
          range.selectNodeContents(paragraph);
          document.getSelection()!.removeAllRanges();
          document.getSelection()!.addRange(range);
        });
      await expect(colleaguePage.locator('#quire-comment-quote').textContent()).resolves.toContain(
        'Restore one a month, to be sure.',
      );
      await colleaguePage.getByLabel('Add a comment, in markdown').fill('Which day of the month?');
      await colleaguePage.getByRole('button', { name: 'Comment', exact: true }).click();
      const comment = colleaguePage.locator('.comment-list > li', { hasText: 'Which day of the month?' });
      await expect(comment.locator('blockquote').textContent()).resolves.toBe('Restore one a month, to be sure.');
      await colleaguePage.getByRole('button', { name: 'Approve' }).click();
      await colleaguePage.waitForURL(changeRequestUrl);

      // The writer answers the comment and resolves it, then merges.
      await writer.goto(backupsInChangeRequest);
      const mine = writer.locator('.comment-list > li', { hasText: 'Which day of the month?' });
      await mine.getByLabel('Reply').fill('The first Monday.');
      await mine.getByRole('button', { name: 'Reply', exact: true }).click();
      await expect(mine.locator('.reply-list').textContent()).resolves.toContain('The first Monday.');
      await mine.getByRole('button', { name: 'Resolve', exact: true }).click();
      await expect(mine.getAttribute('class')).resolves.toBe('resolved');
      await expectNoSeriousViolations(writer);
      await screenshot(writer, 'app change request comments');
      await writer.getByRole('button', { name: 'Merge', exact: true }).click();
      await writer.waitForURL(/\/app\/o\/[^/]+\/s\/[^/]+(?:\/|$)/);

      // Published: the page reads, where it was moved, as the editor's preview showed it.
      const reader = await context.newPage();
      await reader.goto(siteAddress);
      await reader
        .getByRole('navigation', { name: 'Pages' })
        .getByRole('link', { name: 'Backups', exact: true })
        .click();
      await reader.waitForURL(new RegExp(`^${siteAddress}/(?:[a-z-]+/)?alerts/backups$`));
      const article = reader.locator('main');
      await expect(article.locator('.hint').textContent()).resolves.toContain('Restore one a month, to be sure.');
      await expect(article.locator('table').count()).resolves.toBe(1);
      await expect(article.textContent()).resolves.toContain('Checked by the second on duty.');
      // The page dragged inside Alerts is published there.
      await reader.goto(new URL(`${siteAddress}/`).href);
      await expect(
        reader
          .getByRole('navigation', { name: 'Pages' })
          .getByRole('link', { name: 'Restores', exact: true })
          .getAttribute('href'),
      ).resolves.toMatch(/\/alerts\/restores$/);
      await expectNoSeriousViolations(reader);
    } finally {
      await other.close();
    }
  });
});
