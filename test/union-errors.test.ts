import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';

const t = useTestApp();
const api = contentApi(() => t.app);

const OPERATIONS =
  '"insert_page", "update_page", "delete_page", "revert_page", "insert_files", "update_variables", ' +
  '"insert_reusable_content", "update_reusable_content", "delete_reusable_content"';

/** A space with one merged page, and a change request open on it. */
async function changeRequestWithPage() {
  const me = await t.factory.account();
  const org = await t.factory.organization(me.user.id);
  const space = await api.createSpace(me, org.id, { title: 'Docs' });
  const { written } = await api.change(me, space.id, [
    { operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello.\n' } },
  ]);
  const page = (written.changes as Array<{ page: { id: string } }>)[0]!.page.id;
  const changeRequest = await api.openChangeRequest(me, space.id);
  return { me, space, page, changeRequest };
}

describe('a refused content change names the branch its operation chose', () => {
  it('lists the operations when the one given is unknown, and suggests the nearest', async () => {
    const { me, space, page, changeRequest } = await changeRequestWithPage();
    const res = await api.writeContent(me, space.id, changeRequest, [{ operation: 'update_pag', page }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: 400,
        message: `body/changes/0/operation must be one of: ${OPERATIONS} (did you mean "update_page"?)`,
      },
    });
  });

  it('lists the operations when none is given, or one of another type', async () => {
    const { me, space, page, changeRequest } = await changeRequestWithPage();
    const missing = await api.writeContent(me, space.id, changeRequest, [{ page, title: 'T' }]);
    expect(missing.json().error.message).toBe(`body/changes/0/operation is required and must be one of: ${OPERATIONS}`);
    const number = await api.writeContent(me, space.id, changeRequest, [{ operation: 7, page }]);
    expect(number.json().error.message).toBe(`body/changes/0/operation must be one of: ${OPERATIONS}`);
  });

  it('names a misspelled field of update_page and the field it meant, not a field of another operation', async () => {
    const { me, space, page, changeRequest } = await changeRequestWithPage();
    const cases: Array<[unknown, string]> = [
      [
        { operation: 'update_page', page, documnet: { markdown: 'New.\n' } },
        'body/changes/1/documnet is not an accepted field for operation "update_page" (did you mean "document"?)',
      ],
      // The misspelled field is a required one: the typo is reported, not the missing field.
      [
        { operation: 'update_page', pgae: page, title: 'T' },
        'body/changes/1/pgae is not an accepted field for operation "update_page" (did you mean "page"?)',
      ],
      [
        { operation: 'update_page', page, colour: 'red' },
        'body/changes/1/colour is not an accepted field for operation "update_page"',
      ],
      [{ operation: 'update_page', title: 'T' }, 'body/changes/1/page is required for operation "update_page"'],
      [
        { operation: 'delete_page', page, title: 'T' },
        'body/changes/1/title is not an accepted field for operation "delete_page"',
      ],
      [{ operation: 'update_page', page, title: '' }, 'body/changes/1/title must NOT have fewer than 1 characters'],
    ];
    for (const [change, message] of cases) {
      const res = await api.writeContent(me, space.id, changeRequest, [
        { operation: 'insert_page', title: 'Fine' },
        change,
      ]);
      expect(res.statusCode, message).toBe(400);
      expect(res.json(), message).toEqual({ error: { code: 400, message } });
    }
  });

  it('narrows a union inside the chosen branch too: a link page’s target kind', async () => {
    const { me, space, changeRequest } = await changeRequestWithPage();
    const link = (target: unknown) => [{ operation: 'insert_page', type: 'link', title: 'L', target }];
    const wrongKind = await api.writeContent(me, space.id, changeRequest, link({ kind: 'pgae', page: 'p' }));
    expect(wrongKind.json().error.message).toBe(
      'body/changes/0/target/kind must be one of: "url", "page", "file", "anchor", "space", "collection" (did you mean "page"?)',
    );
    const misspelled = await api.writeContent(
      me,
      space.id,
      changeRequest,
      link({ kind: 'url', ulr: 'https://a.test' }),
    );
    expect(misspelled.json().error.message).toBe(
      'body/changes/0/target/ulr is not an accepted field for kind "url" (did you mean "url"?)',
    );
  });

  it('suggests the field a document meant in a union without a discriminator', async () => {
    const { me, space, page, changeRequest } = await changeRequestWithPage();
    const res = await api.writeContent(me, space.id, changeRequest, [
      { operation: 'update_page', page, document: { markdwn: 'x' } },
    ]);
    expect(res.json().error.message).toBe(
      'body/changes/0/document/markdwn is not an accepted field (did you mean "markdown"?)',
    );
  });

  it('changes nothing when one change of a batch is refused', async () => {
    const { me, space, page, changeRequest } = await changeRequestWithPage();
    const before = (await api.getChangeRequest(me, space.id, changeRequest)).json();
    const res = await api.writeContent(me, space.id, changeRequest, [
      { operation: 'update_page', page, document: { markdown: 'Changed.\n' } },
      { operation: 'insert_page', title: 'New page' },
      { operation: 'update_page', page, documnet: { markdown: 'Typo.\n' } },
    ]);
    expect(res.statusCode).toBe(400);
    const after = (await api.getChangeRequest(me, space.id, changeRequest)).json();
    expect(after.revision).toBe(before.revision);
    const pages = await api.read(me, `/v1/spaces/${space.id}/change-requests/${changeRequest}/content`);
    expect(pages.json().pages.map((p: { title: string }) => p.title)).toEqual(['Intro']);
    const content = await api.read(me, `/v1/spaces/${space.id}/change-requests/${changeRequest}/content/page/${page}`, {
      format: 'markdown',
    });
    expect(content.json().markdown).toBe('Hello.\n');
  });
});

describe('every discriminated union in the API is explained the same way', () => {
  it('a move’s position names the sibling types, and a misspelled field', async () => {
    const me = await t.factory.account();
    const org = await t.factory.organization(me.user.id);
    const space = await api.createSpace(me, org.id, { title: 'Moved' });
    const sibling = await api.createSpace(me, org.id, { title: 'Sibling' });
    const move = (before: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/spaces/${space.id}/move`,
        headers: me.headers,
        payload: { position: { before } },
      });
    const cases: Array<[unknown, string]> = [
      [
        { type: 'spcae', space: sibling.id },
        'body/position/before/type must be one of: "space", "collection" (did you mean "space"?)',
      ],
      [{ space: sibling.id }, 'body/position/before/type is required and must be one of: "space", "collection"'],
      [
        { type: 'space', spaec: sibling.id },
        'body/position/before/spaec is not an accepted field for type "space" (did you mean "space"?)',
      ],
      [{ type: 'collection', space: sibling.id }, 'body/position/before/collection is required for type "collection"'],
    ];
    for (const [before, message] of cases) {
      const res = await move(before);
      expect(res.json(), message).toEqual({ error: { code: 400, message } });
    }
  });

  it('a field that several branches of a union fix lists every value they allow', async () => {
    const me = await t.factory.account();
    const org = await t.factory.organization(me.user.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${org.id}/sites/nosite/search`,
      headers: me.headers,
      payload: { query: 'x', mode: 'everything' },
    });
    expect(res.json()).toEqual({
      error: { code: 400, message: 'body/mode must be one of: "specific", "current", "all"' },
    });
    const scoped = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${org.id}/sites/nosite/search`,
      headers: me.headers,
      payload: { query: 'x', scope: { mode: 'everything' } },
    });
    expect(scoped.json().error.message).toBe('body/scope/mode must be one of: "default", "specific", "all"');
  });
});
