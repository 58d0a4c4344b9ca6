import { beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_SNIPPETS } from '../src/app-reader/block-snippets.js';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import { contentApi, flatten } from './support/content.js';
import type { Account } from './support/factory.js';

const t = useTestApp();
const api = contentApi(() => t.app);

/** Signs in with the token as a person would, and gives the session's cookie. */
async function sessionOf(holder: { token: string }): Promise<string> {
  const signedIn = await t.app.inject({
    method: 'POST',
    url: '/app/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
    payload: new URLSearchParams({ token: holder.token }).toString(),
  });
  expect(signedIn.statusCode, signedIn.body).toBe(303);
  return String(signedIn.headers['set-cookie']).split(';')[0]!;
}

const read = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
/** Posts a form from the service's own page, as a browser does. */
const post = (url: string, cookie: string, fields: Record<string, string> = {}, origin = PUBLIC_URL) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });

/** The editor form's fields as the page shows them. */
function formOf(body: string) {
  const title = /<input id="quire-title" name="title"[^>]* value="([^"]*)"/.exec(body)?.[1];
  const markdown = /<textarea id="quire-markdown"[^>]*>([\s\S]*?)<\/textarea>/.exec(body)?.[1];
  const base = /<form class="editor"[\s\S]*?<input type="hidden" name="base" value="([0-9a-f]{64})"/.exec(body)?.[1];
  const from = /<form class="editor"[\s\S]*?<input type="hidden" name="from" value="([\w-]+)"/.exec(body)?.[1];
  const decode = (text: string) =>
    text
      .replace(/&#x3C;/g, '<')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  return { title: title && decode(title), markdown: markdown && decode(markdown), base, from };
}

let admin: Account;
let editor: Account;
let writer: Account;
let reader: Account;
let organizationId: string;
let spaceId: string;
let alerts: string;
let backups: string;

beforeAll(async () => {
  const team = await t.factory.team(['edit', 'read']);
  admin = team.admin;
  editor = team.member('edit');
  reader = team.member('read');
  writer = await t.factory.account();
  await t.factory.member(team.organization.id, writer.user.id, 'edit');
  organizationId = team.organization.id;
  spaceId = (await api.createSpace(admin, organizationId, { title: 'Runbook' })).id as string;
  await api.change(admin, spaceId, [
    { operation: 'insert_page', title: 'Alerts', document: { markdown: 'When the pager rings, **breathe**.' } },
    { operation: 'insert_page', title: 'Backups', document: { markdown: 'Nightly, to two places.' } },
  ]);
  const pages = flatten((await api.read(admin, `/v1/spaces/${spaceId}/content/pages`)).json().pages);
  alerts = pages.find((page) => page.title === 'Alerts')!.id;
  backups = pages.find((page) => page.title === 'Backups')!.id;
});

const spacePath = () => `/app/o/${organizationId}/s/${spaceId}`;
const editPath = (number: number, pageId: string) => `${spacePath()}/change-requests/${number}/~/edit/${pageId}`;
/** Presses Edit on a page of the space: the number of the change request it opens or continues. */
async function editFor(cookie: string, pageId: string): Promise<number> {
  const opened = await post(`${spacePath()}/~/edit/${pageId}`, cookie);
  expect(opened.statusCode, opened.body).toBe(303);
  return Number(/change-requests\/(\d+)\//.exec(String(opened.headers.location))![1]);
}
/** Saves the page through its editor, as the form posts it. */
const save = (
  number: number,
  pageId: string,
  cookie: string,
  fields: { title: string; markdown: string; base: string },
) => post(editPath(number, pageId), cookie, { ...fields, action: 'save' });
/** A page of its own in the change request, written through the API, which the other tests do not edit: its id. */
async function pageInChangeRequest(changeRequestId: string, title: string, markdown: string): Promise<string> {
  const change = { operation: 'insert_page', title, document: { markdown } };
  const written = await api.writeContent(admin, spaceId, changeRequestId, [change], { compat: 'false' });
  expect(written.statusCode, written.body).toBe(200);
  const url = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`;
  return flatten((await api.read(admin, url)).json().pages).find((page) => page.title === title)!.id as string;
}
const markdownIn = async (changeRequest: number | undefined, pageId: string) => {
  const url = changeRequest
    ? `/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/page/${pageId}`
    : `/v1/spaces/${spaceId}/content/page/${pageId}`;
  const page = (await api.read(admin, url, { format: 'markdown' })).json();
  return { title: page.title as string, markdown: page.markdown as string };
};

describe('writing a page in the browser', () => {
  it('offers Edit to a writer with a token that may write, and to no one else', async () => {
    const button = `<form class="page-actions" action="http://docs.test${spacePath()}/~/edit/${alerts}" method="post">`;
    expect((await read(`${spacePath()}/alerts`, await sessionOf(editor))).body).toContain(button);
    expect((await read(`${spacePath()}/alerts`, await sessionOf(reader))).body).not.toContain('/~/edit/');
    const readOnly = await t.factory.token(editor.user.id, { scopes: ['space:read', 'organization:read'] });
    const page = await read(`${spacePath()}/alerts`, await sessionOf(readOnly));
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('/~/edit/');
  });

  it('opens the writer’s change request on Edit, and continues it for the next page', async () => {
    const cookie = await sessionOf(editor);
    const opened = await post(`${spacePath()}/~/edit/${alerts}`, cookie);
    expect(opened.statusCode, opened.body).toBe(303);
    const number = Number(/change-requests\/(\d+)\//.exec(String(opened.headers.location))![1]);
    expect(opened.headers.location).toBe(`http://docs.test${editPath(number, alerts)}`);
    const made = (await api.getChangeRequest(admin, spaceId, number)).json();
    expect(made).toMatchObject({ subject: 'Edit Alerts', status: 'draft', createdBy: { id: editor.user.id } });

    const again = await post(`${spacePath()}/~/edit/${backups}`, cookie);
    expect(again.headers.location).toBe(`http://docs.test${editPath(number, backups)}`);
    // Another writer gets a change request of their own.
    const theirs = await post(`${spacePath()}/~/edit/${alerts}`, await sessionOf(writer));
    expect(theirs.headers.location).not.toBe(`http://docs.test${editPath(number, alerts)}`);
  });

  it('previews without saving, then saves into the change request only', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, alerts);
    const editor_ = await read(editPath(number, alerts), cookie);
    expect(editor_.statusCode).toBe(200);
    const form = formOf(editor_.body);
    expect(form).toMatchObject({
      title: 'Alerts',
      markdown: expect.stringContaining('When the pager rings, **breathe**.'),
    });
    const before = (await api.getChangeRequest(admin, spaceId, number)).json().revision;

    const text =
      'When the pager rings, **breathe**.\n\n{% hint style="warning" %}\nCall the second on duty.\n{% endhint %}\n';
    const previewed = await post(editPath(number, alerts), cookie, {
      title: 'Alerts',
      markdown: text,
      base: form.base!,
      action: 'preview',
    });
    expect(previewed.statusCode).toBe(200);
    expect(previewed.body).toContain('<section class="preview" aria-label="Preview">');
    expect(previewed.body).toContain('Call the second on duty.');
    expect(formOf(previewed.body).markdown).toBe(text);
    expect((await api.getChangeRequest(admin, spaceId, number)).json().revision).toBe(before);

    const saved = await post(editPath(number, alerts), cookie, {
      title: 'Alerts and pages',
      markdown: text,
      base: form.base!,
      action: 'save',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain(`Saved in change request #${number}.`);
    expect(await markdownIn(number, alerts)).toMatchObject({
      title: 'Alerts and pages',
      markdown: expect.stringContaining('Call the second on duty.'),
    });
    // The space's own content waits for the merge.
    expect(await markdownIn(undefined, alerts)).toMatchObject({ title: 'Alerts' });
    expect((await markdownIn(undefined, alerts)).markdown).not.toContain('second on duty');
  });

  it('loses nothing when two writers save the same page: the second sees both, and merges by hand', async () => {
    const first = await sessionOf(editor);
    const second = await sessionOf(writer);
    const number = await editFor(first, backups);
    const firstForm = formOf((await read(editPath(number, backups), first)).body);
    const secondForm = formOf((await read(editPath(number, backups), second)).body);
    expect(secondForm.base).toBe(firstForm.base);

    const saved = await save(number, backups, first, {
      title: 'Backups',
      markdown: 'Nightly, to three places.',
      base: firstForm.base!,
    });
    expect(saved.body).toContain('Saved in change request');

    const lost = await save(number, backups, second, {
      title: 'Backups',
      markdown: 'Hourly, to two places.',
      base: secondForm.base!,
    });
    expect(lost.statusCode).toBe(200);
    expect(lost.body).toContain('Someone saved this page since you opened it');
    expect(lost.body).toContain('Nightly, to three places.');
    const kept = formOf(lost.body);
    expect(kept.markdown).toBe('Hourly, to two places.');
    expect(kept.base).not.toBe(secondForm.base);
    expect((await markdownIn(number, backups)).markdown).toContain('Nightly, to three places.');

    const merged = await save(number, backups, second, {
      title: 'Backups',
      markdown: 'Hourly, to three places.',
      base: kept.base!,
    });
    expect(merged.body).toContain('Saved in change request');
    expect((await markdownIn(number, backups)).markdown).toContain('Hourly, to three places.');
  });

  it('merges two writers’ versions from the one both started from, keeping both where they changed the same lines', async () => {
    const first = await sessionOf(editor);
    const second = await sessionOf(writer);
    const number = await editFor(first, backups);
    const id = (await api.getChangeRequest(admin, spaceId, number)).json().id as string;
    const rota = await pageInChangeRequest(id, 'Rota', 'Monday: Ada.\n\nTuesday: Grace.\n\nWednesday: Linus.');
    const saveAs = (cookie: string, fields: { markdown: string; base: string; from: string }) =>
      post(editPath(number, rota), cookie, { title: 'Rota', ...fields, action: 'save' });
    const firstForm = formOf((await read(editPath(number, rota), first)).body);
    const secondForm = formOf((await read(editPath(number, rota), second)).body);
    expect(secondForm.from).toBeDefined();

    // Each changed other lines: the second's save shows the two merged, to check and save.
    const firstSave = await saveAs(first, {
      markdown: 'Monday: Barbara.\n\nTuesday: Grace.\n\nWednesday: Linus.',
      base: firstForm.base!,
      from: firstForm.from!,
    });
    expect(firstSave.body).toContain('Saved in change request');
    const clean = await saveAs(second, {
      markdown: 'Monday: Ada.\n\nTuesday: Grace.\n\nWednesday: Ken.',
      base: secondForm.base!,
      from: secondForm.from!,
    });
    expect(clean.body).toContain('holds your changes and theirs merged, as they touch different lines');
    const merged = formOf(clean.body);
    expect(merged.markdown).toBe('Monday: Barbara.\n\nTuesday: Grace.\n\nWednesday: Ken.');
    expect(merged.from).not.toBe(secondForm.from);
    expect((await markdownIn(number, rota)).markdown).not.toContain('Ken');
    const savedMerge = await saveAs(second, { markdown: merged.markdown!, base: merged.base!, from: merged.from! });
    expect(savedMerge.body).toContain('Saved in change request');

    // Both changed the same line: both versions are kept between marks, which a save refuses until they are gone.
    const again = formOf(savedMerge.body);
    const firstAgain = formOf((await read(editPath(number, rota), first)).body);
    expect(
      (
        await saveAs(first, {
          markdown: 'Monday: Barbara.\n\nTuesday: Alan.\n\nWednesday: Ken.',
          base: firstAgain.base!,
          from: firstAgain.from!,
        })
      ).body,
    ).toContain('Saved in change request');
    const clash = await saveAs(second, {
      markdown: 'Monday: Barbara.\n\nTuesday: Margaret.\n\nWednesday: Ken.',
      base: again.base!,
      from: again.from!,
    });
    expect(clash.body).toContain('in one place you both changed the same lines');
    const marked = formOf(clash.body);
    expect(marked.markdown).toBe(
      'Monday: Barbara.\n\n<<<<<<< yours\nTuesday: Margaret.\n=======\nTuesday: Alan.\n>>>>>>> theirs\n\nWednesday: Ken.',
    );
    const refused = await saveAs(second, { markdown: marked.markdown!, base: marked.base!, from: marked.from! });
    expect(refused.body).toContain('Not saved: the content still holds both versions');
    expect(formOf(refused.body).markdown).toBe(marked.markdown);
    const autosave = await post(`${spacePath()}/change-requests/${number}/~/autosave/${rota}`, second, {
      title: 'Rota',
      markdown: marked.markdown!,
      base: marked.base!,
    });
    expect(autosave.statusCode).toBe(400);
    expect(autosave.json()).toMatchObject({
      saved: false,
      message: expect.stringContaining('still holds both versions'),
    });
    expect((await markdownIn(number, rota)).markdown).toContain('Tuesday: Alan.');
    expect((await markdownIn(number, rota)).markdown).not.toContain('<<<<<<<');

    const chosen = await saveAs(second, {
      markdown: 'Monday: Barbara.\n\nTuesday: Alan, then Margaret.\n\nWednesday: Ken.',
      base: marked.base!,
      from: marked.from!,
    });
    expect(chosen.body).toContain('Saved in change request');
    expect((await markdownIn(number, rota)).markdown).toContain('Tuesday: Alan, then Margaret.');
    // A revision of another space is nothing to merge from: the second is shown both, to merge by hand.
    expect(
      (
        await post(editPath(number, rota), second, {
          title: 'Rota',
          markdown: 'x',
          base: marked.base!,
          from: 'nope',
          action: 'save',
        })
      ).body,
    ).toContain('Merge them by hand');
  });

  it('sets the page’s emoji, icon and layout from its settings, and leaves them to a form without them', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, backups);
    const id = (await api.getChangeRequest(admin, spaceId, number)).json().id as string;
    const landing = await pageInChangeRequest(id, 'Landing', 'Welcome aboard.');
    const pageUrl = `/v1/spaces/${spaceId}/change-requests/${id}/content/page/${landing}`;
    const opened = (await read(editPath(number, landing), cookie)).body;
    // GitBook's defaults: every part shows, at the default width.
    expect(opened).toContain('<option value="default" selected>Default</option>');
    for (const part of ['title', 'description', 'tableOfContents', 'outline', 'pagination']) {
      expect(opened).toContain(`<input type="checkbox" name="show-${part}" value="on" checked>`);
    }
    const form = formOf(opened);
    const settings = {
      title: 'Landing',
      markdown: 'Welcome aboard.',
      look: '1',
      emoji: '📘',
      icon: 'book-open',
      width: 'wide',
      'show-title': 'on',
      'show-description': 'on',
      'show-pagination': 'on',
      action: 'save',
    };
    const saved = await post(editPath(number, landing), cookie, { ...settings, base: form.base!, from: form.from! });
    expect(saved.body).toContain('Saved in change request');
    const page = (await api.read(admin, pageUrl)).json();
    expect(page).toMatchObject({ emoji: '📘', icon: 'book-open' });
    expect(page.layout).toMatchObject({
      width: 'wide',
      title: true,
      description: true,
      tableOfContents: false,
      outline: false,
      pagination: true,
    });
    // The layout went in as frontmatter, not as words of the page.
    const shown = (await read(editPath(number, landing), cookie)).body;
    expect(formOf(shown).markdown).toBe('Welcome aboard.');
    expect(shown).toContain('<option value="wide" selected>Wide</option>');
    expect(shown).toContain('<input type="checkbox" name="show-outline" value="on">');
    expect(shown).toContain('value="book-open"');

    // Refused, changing nothing: an icon that is not a name, an emoji that is not one.
    const again = formOf(shown);
    const badIcon = await post(editPath(number, landing), cookie, {
      ...settings,
      icon: 'Book Open',
      base: again.base!,
    });
    expect(badIcon.statusCode).toBe(400);
    const badEmoji = await post(editPath(number, landing), cookie, {
      ...settings,
      emoji: 'not an emoji',
      base: again.base!,
    });
    expect(badEmoji.statusCode).toBe(400);
    // A form without the settings (an older page, a script) leaves them as they are.
    const plain = await save(number, landing, cookie, {
      title: 'Landing',
      markdown: 'Welcome, again.',
      base: again.base!,
    });
    expect(plain.body).toContain('Saved in change request');
    expect((await api.read(admin, pageUrl)).json()).toMatchObject({
      emoji: '📘',
      icon: 'book-open',
      layout: { width: 'wide', outline: false },
    });
  });

  it('saves a page when another page of the change request was saved in between', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, alerts);
    const alertsForm = formOf((await read(editPath(number, alerts), cookie)).body);
    const backupsForm = formOf((await read(editPath(number, backups), cookie)).body);
    const other = await save(number, backups, await sessionOf(writer), {
      title: 'Backups',
      markdown: 'Weekly.',
      base: backupsForm.base!,
    });
    expect(other.body).toContain('Saved in change request');
    const saved = await save(number, alerts, cookie, {
      title: 'Alerts',
      markdown: 'Page the lead.',
      base: alertsForm.base!,
    });
    expect(saved.body).toContain('Saved in change request');
    expect((await markdownIn(number, alerts)).markdown).toContain('Page the lead.');
    expect((await markdownIn(number, backups)).markdown).toContain('Weekly.');
  });

  it('refuses readers, other sites, the signed out, bad forms and closed change requests, changing nothing', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, alerts);
    const form = formOf((await read(editPath(number, alerts), cookie)).body);
    const revision = (await api.getChangeRequest(admin, spaceId, number)).json().revision;
    const fields = { title: 'Alerts', markdown: 'Vandalised.', base: form.base!, action: 'save' };

    const readerCookie = await sessionOf(reader);
    expect((await post(`${spacePath()}/~/edit/${alerts}`, readerCookie)).statusCode).toBe(403);
    expect((await read(editPath(number, alerts), readerCookie)).statusCode).toBe(403);
    expect((await post(editPath(number, alerts), readerCookie, fields)).statusCode).toBe(403);
    expect((await post(editPath(number, alerts), cookie, fields, 'https://evil.example')).statusCode).toBe(403);
    const signedOut = await t.app.inject({ method: 'GET', url: editPath(number, alerts) });
    expect(signedOut.statusCode).toBe(302);
    expect((await post(editPath(number, alerts), cookie, { ...fields, base: 'nope' })).statusCode).toBe(400);
    expect((await post(editPath(number, alerts), cookie, { ...fields, title: '' })).statusCode).toBe(400);
    expect((await post(editPath(number, 'nope'), cookie, fields)).statusCode).toBe(404);
    // Another organization's address for the space.
    const elsewhere = await t.factory.team();
    const wrongOrg = `/app/o/${elsewhere.organization.id}/s/${spaceId}/change-requests/${number}/~/edit/${alerts}`;
    expect((await read(wrongOrg, cookie)).statusCode).toBe(404);
    expect((await api.getChangeRequest(admin, spaceId, number)).json().revision).toBe(revision);

    // A merged change request takes no more edits.
    expect((await api.merge(admin, spaceId, String(number))).statusCode).toBe(200);
    const closed = await post(editPath(number, alerts), cookie, fields);
    expect(closed.statusCode).toBe(200);
    expect(closed.body).toContain('Not saved:');
    expect(formOf(closed.body).markdown).toBe('Vandalised.');
    expect((await markdownIn(undefined, alerts)).markdown).not.toContain('Vandalised.');
  });

  it('takes a change request through review to its merge, as a writer and a reviewer would', async () => {
    const author = await sessionOf(writer);
    // The writer's earlier change request was opened before others were merged: archived, Edit opens a new one.
    for (const open of await t.db
      .selectFrom('change_requests')
      .select('number')
      .where('created_by', '=', writer.user.id)
      .where('status', 'in', ['draft', 'open'])
      .execute()) {
      const archived = await t.app.inject({
        method: 'PATCH',
        url: `/v1/spaces/${spaceId}/change-requests/${open.number}`,
        headers: writer.headers,
        payload: { status: 'archived' },
      });
      expect(archived.statusCode, archived.body).toBe(200);
    }
    const number = await editFor(author, alerts);
    const form = formOf((await read(editPath(number, alerts), author)).body);
    const saved = await save(number, alerts, author, {
      title: 'Alerts',
      markdown: 'Reviewed words.',
      base: form.base!,
    });
    expect(saved.body).toContain('Saved in change request');
    const crPath = `${spacePath()}/change-requests/${number}`;
    const actions = (name: string) => `${crPath}/~/${name}`;

    const own = (await read(crPath, author)).body;
    expect(own).toContain(`<form action="http://docs.test${actions('status')}" method="post">`);
    expect(own).toContain('Request changes');
    expect(own).not.toContain('>Approve<');
    expect((await read(crPath, await sessionOf(reader))).statusCode).toBe(200);
    expect((await read(crPath, await sessionOf(reader))).body).not.toContain('review-actions');
    expect((await post(actions('review'), await sessionOf(reader), { status: 'approved' })).statusCode).toBe(403);

    const asked = await post(actions('status'), author, { status: 'open' });
    expect(asked.statusCode).toBe(303);
    expect(asked.headers.location).toBe(`http://docs.test${crPath}`);
    expect((await api.getChangeRequest(admin, spaceId, number)).json().status).toBe('open');

    // Asking a member by address; an address outside the organization, or a member who may not review, is refused.
    const ask = await post(actions('reviewers'), author, { email: admin.user.email.toUpperCase() });
    expect(ask.statusCode, ask.body).toBe(303);
    expect((await read(crPath, author)).body).toContain(`Asked to review: ${admin.user.display_name}.`);
    const stranger = await t.factory.account();
    const outside = await post(actions('reviewers'), author, { email: stranger.user.email });
    expect(outside.statusCode).toBe(400);
    expect(outside.body).toContain('No member of this organization has that address');
    expect((await post(actions('reviewers'), author, { email: reader.user.email })).statusCode).toBe(400);
    const requested = (
      await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/requested-reviewers`)
    ).json();
    expect(requested.items).toMatchObject([{ kind: 'user', user: { id: admin.user.id } }]);

    // The author may not approve their own work.
    expect((await post(actions('review'), author, { status: 'approved' })).statusCode).toBe(403);
    const reviewer = await sessionOf(admin);
    expect((await read(crPath, reviewer)).body).toContain('>Approve<');
    const approved = await post(actions('review'), reviewer, { status: 'approved', comment: 'Clear and short.' });
    expect(approved.statusCode).toBe(303);
    const reviews = (await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/reviews`)).json();
    expect(reviews.items).toMatchObject([{ status: 'approved', reviewer: { id: admin.user.id } }]);

    // A token that may write but not merge cannot merge; the session of one that may, merges.
    const noMerge = await t.factory.token(writer.user.id, {
      scopes: ['space:read', 'space:write', 'organization:read'],
    });
    expect((await post(actions('merge'), await sessionOf(noMerge))).statusCode).toBe(403);
    expect((await post(actions('merge'), author, {}, 'https://evil.example')).statusCode).toBe(403);
    const merged = await post(actions('merge'), author);
    expect(merged.statusCode).toBe(303);
    expect(merged.headers.location).toBe(`http://docs.test${spacePath()}`);
    expect((await api.getChangeRequest(admin, spaceId, number)).json().status).toBe('merged');
    expect((await markdownIn(undefined, alerts)).markdown).toContain('Reviewed words.');
    // A merged change request offers nothing more.
    expect((await read(crPath, author)).body).not.toContain('review-actions');
  });

  it('keeps the page’s settings, adds pages after or inside it, and deletes it only as the writer saw it', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, backups);
    const form = formOf((await read(editPath(number, backups), cookie)).body);
    const settings = await post(editPath(number, backups), cookie, {
      title: 'Backups',
      description: 'Where copies go',
      hidden: 'on',
      markdown: form.markdown!,
      base: form.base!,
      action: 'save',
    });
    expect(settings.body).toContain('Saved in change request');
    const page = (
      await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/content/page/${backups}`)
    ).json();
    expect(page).toMatchObject({ description: 'Where copies go', hidden: true });
    const reopened = (await read(editPath(number, backups), cookie)).body;
    expect(reopened).toContain('Where copies go</textarea>');
    expect(reopened).toMatch(/<input type="checkbox" name="hidden" value="on" checked>/);

    const tool = (name: string, pageId: string) => `${spacePath()}/change-requests/${number}/~/${name}/${pageId}`;
    const after = await post(tool('new', backups), cookie, { title: 'Restores', where: 'after' });
    expect(after.statusCode, after.body).toBe(303);
    const restores = /\/~\/edit\/([^/]+)$/.exec(String(after.headers.location))![1]!;
    const inside = await post(tool('new', backups), cookie, { title: 'Offsite', where: 'below' });
    const offsite = /\/~\/edit\/([^/]+)$/.exec(String(inside.headers.location))![1]!;
    const tree = (await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/content/pages`)).json();
    const backupsPage = flatten(tree.pages).find((candidate) => candidate.id === backups)!;
    expect(backupsPage.pages.map((child) => child.id)).toEqual([offsite]);
    const titles = tree.pages.map((candidate: { title: string }) => candidate.title);
    expect(titles.indexOf('Restores')).toBe(titles.indexOf('Backups') + 1);
    expect(formOf((await read(editPath(number, restores), cookie)).body)).toMatchObject({ title: 'Restores' });

    // Moved by its form, as the keyboard reaches it: Restores inside Alerts, then back to the top level's end.
    const editorOfRestores = (await read(editPath(number, restores), cookie)).body;
    expect(editorOfRestores).toContain(`<option value="${alerts}">Alerts</option>`);
    expect(editorOfRestores).not.toContain(`<option value="${restores}">`);
    const movedIn = await post(tool('move', restores), cookie, { target: alerts, where: 'inside' });
    expect(movedIn.statusCode).toBe(200);
    expect(movedIn.body).toContain('Moved.');
    const moved = (await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/content/pages`)).json();
    expect(
      flatten(moved.pages)
        .find((candidate) => candidate.id === alerts)!
        .pages.map((child) => child.id),
    ).toEqual([restores]);
    // Not under itself: its own subpages are not offered, and a forged target moves nothing.
    const underItself = await post(tool('move', backups), cookie, { target: offsite, where: 'inside' });
    expect(underItself.body).toContain('Not moved:');
    const movedOut = await post(tool('move', restores), cookie, { target: '', where: 'inside' });
    expect(movedOut.body).toContain('Moved.');
    const top = (await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/content/pages`)).json();
    expect(top.pages.at(-1).id).toBe(restores);
    // Before a page: first of all, where no other place puts it.
    const first = top.pages[0].id as string;
    const movedFirst = await post(tool('move', restores), cookie, { target: first, where: 'before' });
    expect(movedFirst.body).toContain('Moved.');
    const ordered = (await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/content/pages`)).json();
    expect(ordered.pages.slice(0, 2).map((page: { id: string }) => page.id)).toEqual([restores, first]);
    expect((await post(tool('move', restores), cookie, { target: first, where: 'above' })).statusCode).toBe(400);

    // A delete from a page another writer changed since deletes nothing.
    const stale = formOf((await read(editPath(number, restores), cookie)).body);
    const restoresForm = formOf((await read(editPath(number, restores), await sessionOf(writer))).body);
    await save(number, restores, await sessionOf(writer), {
      title: 'Restores',
      markdown: 'Test them monthly.',
      base: restoresForm.base!,
    });
    const refused = await post(tool('delete', restores), cookie, { base: stale.base! });
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain('Not deleted: the page changed since you opened it');
    expect(refused.body).toContain('Test them monthly.');
    const fresh = formOf(refused.body);
    const deleted = await post(tool('delete', restores), cookie, { base: fresh.base! });
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe(`http://docs.test${spacePath()}/change-requests/${number}`);
    const after2 = (await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/content/pages`)).json();
    expect(flatten(after2.pages).map((candidate) => candidate.id)).not.toContain(restores);
    // A reader can do neither.
    const readerCookie = await sessionOf(reader);
    expect((await post(tool('new', backups), readerCookie, { title: 'Nope', where: 'after' })).statusCode).toBe(403);
    expect((await post(tool('delete', backups), readerCookie, { base: fresh.base! })).statusCode).toBe(403);
  });

  it('serves the editor’s script from its own origin, and previews live for writers only', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, alerts);
    const page = await read(editPath(number, alerts), cookie);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const src =
      /<script src="http:\/\/docs\.test(\/app\/~\/editor\.js\?v=[\w-]{12})" defer nonce="[^"]+"><\/script>/.exec(
        page.body,
      )?.[1];
    expect(src).toBeDefined();
    expect(page.body).toContain(
      `data-preview="http://docs.test${spacePath()}/change-requests/${number}/~/preview/${alerts}"`,
    );
    expect(page.body).not.toMatch(/<script>(?!<)/);

    // CodeMirror's bundle first, then the editor's script: both hold the nonce that lets CodeMirror add its styles.
    const scripts = [
      ...page.body.matchAll(
        /<script src="http:\/\/docs\.test(\/app\/~\/[\w-]+\.js)\?v=[\w-]{12}" defer nonce="([^"]+)"><\/script>/g,
      ),
    ];
    expect(scripts.map((match) => match[1])).toEqual(['/app/~/markdown-editor.js', '/app/~/editor.js']);
    const nonce = scripts[0]![2]!;
    expect(page.headers['content-security-policy']).toContain(`style-src 'self' 'nonce-${nonce}';`);
    const again2 = await read(editPath(number, alerts), cookie);
    expect(again2.headers['content-security-policy']).not.toContain(nonce);
    // No other page of the app allows a style of a nonce.
    expect((await read(spacePath(), cookie)).headers['content-security-policy']).toContain("style-src 'self';");

    const bundleUrl = /<script src="http:\/\/docs\.test(\/app\/~\/markdown-editor\.js\?v=[\w-]{12})"/.exec(
      page.body,
    )![1]!;
    const bundle = await t.app.inject({ method: 'GET', url: bundleUrl, headers: { 'accept-encoding': 'gzip' } });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bundle.headers['content-encoding']).toBe('gzip');
    // The issue's bound on what a writer's browser downloads for the editor.
    expect(bundle.rawPayload.length).toBeLessThan(150 * 1024);
    const plain = await t.app.inject({ method: 'GET', url: bundleUrl });
    expect(plain.body).toContain('quireMarkdownEditor');
    expect(plain.body).toContain('CodeMirror 6 (MIT licence');
    const held = await t.app.inject({
      method: 'GET',
      url: bundleUrl,
      headers: { 'if-none-match': String(plain.headers.etag) },
    });
    expect(held.statusCode).toBe(304);

    const script = await t.app.inject({ method: 'GET', url: src! });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('form.editor[data-preview]');
    const again = await t.app.inject({
      method: 'GET',
      url: src!,
      headers: { 'if-none-match': String(script.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const previewUrl = `${spacePath()}/change-requests/${number}/~/preview/${alerts}`;
    const live = await post(previewUrl, cookie, { markdown: '{% hint style="info" %}\nLive words.\n{% endhint %}' });
    expect(live.statusCode).toBe(200);
    expect(live.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(live.body).toContain('Live words.');
    expect(live.body).toContain('hint');
    expect(live.body).not.toContain('<html');
    const revision = (await api.getChangeRequest(admin, spaceId, number)).json().revision;
    expect((await post(previewUrl, await sessionOf(reader), { markdown: 'x' })).statusCode).toBe(403);
    expect((await post(previewUrl, cookie, { markdown: 'x' }, 'https://evil.example')).statusCode).toBe(403);
    const signedOut = await t.app.inject({
      method: 'POST',
      url: previewUrl,
      headers: { origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'markdown=x',
    });
    expect(signedOut.statusCode).toBe(401);
    expect((await api.getChangeRequest(admin, spaceId, number)).json().revision).toBe(revision);
  });

  it('offers a menu of GitBook’s blocks and links to the other pages, each read back as the block it names', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, alerts);
    const page = await read(editPath(number, alerts), cookie);
    const menu =
      /<div id="quire-blocks" class="block-menu" hidden role="toolbar" aria-label="Insert a block">([\s\S]*?)<\/div>/.exec(
        page.body,
      )?.[1];
    expect(menu).toBeDefined();
    const labels = [...menu!.matchAll(/<button type="button" data-insert="[^"]*"[^>]*>([^<]+)<\/button>/g)].map(
      (m) => m[1],
    );
    expect(labels).toEqual(BLOCK_SNIPPETS.map((snippet) => snippet.label));
    // Links name every other page by its id, and never the page itself.
    expect(menu).toContain(`<option value="/pages/${backups}">Backups</option>`);
    expect(menu).not.toContain(`/pages/${alerts}"`);

    // Each block, written through the API as the editor saves it, is the block the menu names.
    const markdown =
      BLOCK_SNIPPETS.map((snippet) => snippet.markdown).join('\n\n') + `\n\n[Backups](/pages/${backups})\n`;
    const written = await t.app.context.conversions.toDocumentJson(markdown, 'The blocks');
    const nodes = (JSON.parse(written) as { nodes: Array<{ type: string; data?: { view?: { type?: string } } }> })
      .nodes;
    expect(nodes.map((node) => node.type)).toEqual([...BLOCK_SNIPPETS.map((snippet) => snippet.block), 'paragraph']);
    expect(nodes[BLOCK_SNIPPETS.findIndex((snippet) => snippet.label === 'Cards')]!.data?.view?.type).toBe('cards');
    expect(JSON.stringify(nodes.at(-1))).toContain(`"page":"${backups}"`);
  });

  it('saves a draft in progress for the editor’s script, and stops at a page another writer saved', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, alerts);
    const form = formOf((await read(editPath(number, alerts), cookie)).body);
    const autosave = `${spacePath()}/change-requests/${number}/~/autosave/${alerts}`;
    const first = await post(autosave, cookie, { title: 'Alerts', markdown: 'Draft one.', base: form.base! });
    expect(first.statusCode, first.body).toBe(200);
    const saved = first.json();
    expect(saved).toMatchObject({ saved: true, base: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(saved.base).not.toBe(form.base);
    expect((await markdownIn(number, alerts)).markdown).toContain('Draft one.');
    // The next pause goes on from the base the last one answered.
    const second = await post(autosave, cookie, { title: 'Alerts', markdown: 'Draft two.', base: saved.base });
    expect(second.json()).toMatchObject({ saved: true });
    // A draft from the old base (another tab, or another writer) is refused, and nothing changes.
    const stale = await post(autosave, cookie, { title: 'Alerts', markdown: 'Old tab.', base: form.base! });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ saved: false, message: expect.stringContaining('press Save') });
    expect((await markdownIn(number, alerts)).markdown).toContain('Draft two.');
    expect(
      (await post(autosave, await sessionOf(reader), { title: 'A', markdown: 'x', base: saved.base })).statusCode,
    ).toBe(403);
  });

  it('lists a page’s comments in the change request, and lets those who may comment add one', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, backups);
    const id = (await api.getChangeRequest(admin, spaceId, number)).json().id as string;
    const pagePath = `${spacePath()}/change-requests/${id}/backups`;
    const empty = (await read(pagePath, cookie)).body;
    expect(empty).toContain('<h2 id="quire-comments-title">Comments on this page</h2>');
    expect(empty).toContain('No comments yet.');
    const action = `${spacePath()}/change-requests/${number}/~/comment/${backups}`;
    expect(empty).toContain(`<form class="comment-form" action="http://docs.test${action}" method="post">`);

    const posted = await post(action, cookie, { comment: 'Is <b>two</b> enough?', back: pagePath });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(pagePath);
    const listed = (await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${id}/comments`)).json();
    expect(listed.items).toMatchObject([
      {
        body: { markdown: 'Is <b>two</b> enough?' },
        target: { page: { id: backups } },
        postedBy: { id: editor.user.id },
      },
    ]);
    const shown = (await read(pagePath, cookie)).body;
    // As text: the markdown's HTML is not the page's.
    expect(shown).toContain('<p class="comment-body">Is &#x3C;b>two&#x3C;/b> enough?</p>');
    expect(shown).not.toContain('No comments yet.');

    // A reader reads the comments but is offered no form, and cannot post one; an address elsewhere is not followed.
    const readerCookie = await sessionOf(reader);
    const asReader = (await read(pagePath, readerCookie)).body;
    expect(asReader).toContain('Is &#x3C;b>two&#x3C;/b> enough?');
    expect(asReader).not.toContain('comment-form');
    expect((await post(action, readerCookie, { comment: 'Mine too' })).statusCode).toBe(403);
    const elsewhere = await post(action, cookie, { comment: 'Again', back: 'https://evil.example/app' });
    expect(elsewhere.headers.location).toBe('/app');
    expect((await post(action, cookie, { comment: '   ' })).statusCode).toBe(400);
  });

  it('comments on a selection’s block, replies and resolves in the browser, as the API has them', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, backups);
    const id = (await api.getChangeRequest(admin, spaceId, number)).json().id as string;
    const drills = await pageInChangeRequest(id, 'Drills', 'When the pager rings, **breathe**.');
    const pagePath = `${spacePath()}/change-requests/${id}/drills`;
    const place = `${spacePath()}/change-requests/${number}/~`;
    const threadUrl = `/v1/spaces/${spaceId}/change-requests/${id}/comments`;
    const countComments = async () => (await api.read(admin, threadUrl)).json().items.length as number;
    const before = await countComments();

    // A selection that is not on the page is refused, and stores nothing.
    const gone = await post(`${place}/comment/${drills}`, cookie, { comment: 'Why?', quote: 'words nowhere here' });
    expect(gone.statusCode).toBe(400);
    expect(gone.body).toContain('not on this page');
    expect(await countComments()).toBe(before);

    // Text selected across the page's words (spaced as a browser gives them) names the block that holds it.
    const quoted = await post(`${place}/comment/${drills}`, cookie, {
      comment: 'Breathe how?',
      quote: 'pager  rings,\nbreathe',
      back: pagePath,
    });
    expect(quoted.statusCode, quoted.body).toBe(303);
    const comment = (await api.read(admin, threadUrl))
      .json()
      .items.find((item: { body: { markdown?: string } }) => item.body.markdown === 'Breathe how?');
    expect(comment).toMatchObject({
      body: { markdown: 'Breathe how?' },
      target: { page: { id: drills }, node: { preview: 'When the pager rings, breathe.' } },
      status: 'open',
    });
    const commentId = comment.id as string;

    // A reply, then resolve and reopen: each as the API stores it, each shown on the page.
    const replied = await post(`${place}/reply/${commentId}`, cookie, {
      reply: 'Slowly, **in** and out.',
      back: pagePath,
    });
    expect(replied.statusCode, replied.body).toBe(303);
    expect(replied.headers.location).toBe(pagePath);
    const replies = (await api.read(admin, `${threadUrl}/${commentId}/replies`)).json().items;
    expect(replies).toMatchObject([
      { body: { markdown: 'Slowly, **in** and out.' }, postedBy: { id: editor.user.id } },
    ]);
    let shown = (await read(pagePath, cookie)).body;
    expect(shown).toContain('<blockquote class="comment-quote">When the pager rings, breathe.</blockquote>');
    expect(shown).toMatch(
      /<ol class="reply-list" aria-label="Replies"><li>[\s\S]*Slowly, \*\*in\*\* and out\.<\/p><\/li><\/ol>/,
    );
    expect(shown).toContain(`action="http://docs.test${place}/resolve/${commentId}"`);
    expect(shown).toContain('>Resolve</button>');
    // The page loads the script that names a selection's block, from the app's own origin.
    expect(shown).toMatch(/<script src="http:\/\/docs\.test\/app\/~\/editor\.js\?v=[\w-]{12}" defer><\/script>/);

    expect((await post(`${place}/resolve/${commentId}`, cookie, { resolved: 'true', back: pagePath })).statusCode).toBe(
      303,
    );
    expect((await api.read(admin, `${threadUrl}/${commentId}`)).json()).toMatchObject({
      status: 'resolved',
      resolvedBy: { id: editor.user.id },
    });
    shown = (await read(pagePath, cookie)).body;
    expect(shown).toContain(`<li class="resolved" id="comment-${commentId}">`);
    expect(shown).toContain('>Reopen</button>');
    expect((await post(`${place}/resolve/${commentId}`, cookie, { resolved: 'false' })).statusCode).toBe(303);
    expect((await api.read(admin, `${threadUrl}/${commentId}`)).json().status).toBe('open');

    // Refused, changing nothing: a reader, another site, nothing said, a comment of no such id, a bad status.
    const readerCookie = await sessionOf(reader);
    expect((await post(`${place}/reply/${commentId}`, readerCookie, { reply: 'Me too' })).statusCode).toBe(403);
    expect((await post(`${place}/resolve/${commentId}`, readerCookie, { resolved: 'true' })).statusCode).toBe(403);
    expect(
      (await post(`${place}/reply/${commentId}`, cookie, { reply: 'From afar' }, 'https://evil.example')).statusCode,
    ).toBe(403);
    expect((await post(`${place}/reply/${commentId}`, cookie, { reply: '  ' })).statusCode).toBe(400);
    expect((await post(`${place}/reply/nope`, cookie, { reply: 'Lost' })).statusCode).toBe(404);
    expect((await post(`${place}/resolve/${commentId}`, cookie, { resolved: 'maybe' })).statusCode).toBe(400);
    expect((await api.read(admin, `${threadUrl}/${commentId}/replies`)).json().items).toHaveLength(1);
    expect((await api.read(admin, `${threadUrl}/${commentId}`)).json().status).toBe('open');
  });

  it('lets writers drag a change request’s pages in its table of contents, and no one else', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, backups);
    const id = (await api.getChangeRequest(admin, spaceId, number)).json().id as string;
    const changeRequestPath = `${spacePath()}/change-requests/${id}`;
    const asWriter = (await read(changeRequestPath, cookie)).body;
    const entries = [...asWriter.matchAll(/<li data-page="([^"]+)"(?: data-move="([^"]+)" draggable="true")?>/g)];
    const movable = entries.filter((entry) => entry[2]);
    expect(movable.length).toBeGreaterThan(0);
    // Each names the move of its own page in this change request.
    for (const [, pageId, move] of movable) {
      expect(move).toBe(`http://docs.test${spacePath()}/change-requests/${number}/~/move/${pageId}`);
    }
    // A reader reads the same tree, with nothing to drag; the space's own content is not moved by dragging.
    const asReader = (await read(changeRequestPath, await sessionOf(reader))).body;
    expect(asReader).toContain('<nav');
    expect(asReader).not.toContain('data-move');
    expect(asReader).not.toContain('draggable');
    expect((await read(spacePath(), cookie)).body).not.toContain('data-page');
  });

  it('stores a file the editor’s script sends, and answers the markdown that shows it', async () => {
    const cookie = await sessionOf(editor);
    const number = await editFor(cookie, alerts);
    const upload = `${spacePath()}/change-requests/${number}/~/upload/${alerts}`;
    const added = await post(upload, cookie, { name: 'dot.png', contentType: 'image/png', base64: PNG });
    expect(added.statusCode, added.body).toBe(200);
    const { markdown } = added.json();
    const fileId = /^!\[dot\.png\]\(\/files\/([\w-]+)\)$/.exec(markdown)?.[1];
    expect(fileId).toBeDefined();
    const files = (await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/content/files`)).json();
    expect(files.items).toContainEqual(
      expect.objectContaining({ id: fileId, name: 'dot.png', contentType: 'image/png' }),
    );
    // The preview shows it, from the change request's files, at a signed address of this service.
    const previewed = await post(`${spacePath()}/change-requests/${number}/~/preview/${alerts}`, cookie, { markdown });
    expect(previewed.body).toMatch(/<img[^>]* src="http:\/\/docs\.test\/files\/[^"]+dot\.png[^"]*"/);
    const text = await post(upload, cookie, { name: 'notes.txt', contentType: 'text/plain', base64: 'aGVsbG8=' });
    expect(text.json().markdown).toMatch(/^\[notes\.txt\]\(\/files\/[\w-]+\)$/);

    const tooBig = await post(upload, cookie, {
      name: 'big.bin',
      contentType: 'application/octet-stream',
      base64: Buffer.alloc(1024 * 1024 + 1).toString('base64'),
    });
    expect(tooBig.statusCode).toBeGreaterThanOrEqual(400);
    expect(tooBig.statusCode).toBeLessThan(500);
    expect((await post(upload, cookie, { name: '../x.png', contentType: 'image/png', base64: PNG })).statusCode).toBe(
      400,
    );
    expect(
      (await post(upload, await sessionOf(reader), { name: 'r.png', contentType: 'image/png', base64: PNG }))
        .statusCode,
    ).toBe(403);
    const after = (await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${number}/content/files`)).json();
    expect(after.items.map((file: { name: string }) => file.name)).not.toContain('big.bin');
  });
});

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
