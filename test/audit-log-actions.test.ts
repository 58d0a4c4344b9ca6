import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { auditHelpers } from './support/audit.js';

// Each action kind's row: actor, token, address, target, before and after; none for a refused request.
const t = useTestApp();
const { setup, call, rowsOf, createSpace } = auditHelpers(t);

describe('each action kind', () => {
  it('records a member’s role change with before and after, and their removal', async () => {
    const s = await setup();
    const url = `/v1/orgs/${s.organizationId}/members/${s.reader.user.id}`;
    expect((await call(s.admin, 'PATCH', url, { role: 'edit' })).status).toBe(200);
    expect((await call(s.admin, 'DELETE', url)).status).toBe(204);
    const rows = await rowsOf(s.organizationId);
    expect(rows.map((row) => [row.action, row.target_id, row.actor_id, row.token_id, row.ip])).toEqual([
      ['member.role_changed', s.reader.user.id, s.admin.user.id, s.admin.tokenId, '127.0.0.1'],
      ['member.removed', s.reader.user.id, s.admin.user.id, s.admin.tokenId, '127.0.0.1'],
    ]);
    expect(rows[0]!.payload).toEqual({ before: { role: 'read' }, after: { role: 'edit' } });
    expect(rows[1]!.payload).toEqual({ before: { role: 'edit' } });
  });

  it('records nothing when the last admin would go (409) or a member tries (403)', async () => {
    const s = await setup();
    expect(
      (await call(s.admin, 'PATCH', `/v1/orgs/${s.organizationId}/members/${s.admin.user.id}`, { role: 'read' }))
        .status,
    ).toBe(409);
    expect((await call(s.editor, 'DELETE', `/v1/orgs/${s.organizationId}/members/${s.reader.user.id}`)).status).toBe(
      403,
    );
    expect(
      (await call(s.admin, 'PATCH', `/v1/orgs/${s.organizationId}/members/${s.reader.user.id}`, { role: 'nope' }))
        .status,
    ).toBe(400);
    expect(await rowsOf(s.organizationId)).toEqual([]);
  });

  it('records teams made, renamed, their members, and deleted', async () => {
    const s = await setup();
    const made = await call(s.admin, 'PUT', `/v1/orgs/${s.organizationId}/teams`, { title: 'Writers' });
    const teamId = (made.body as unknown as { id: string }).id;
    const team = `/v1/orgs/${s.organizationId}/teams/${teamId}`;
    expect((await call(s.admin, 'PATCH', team, { title: 'Editors' })).status).toBe(200);
    expect((await call(s.admin, 'PUT', `${team}/members/${s.editor.user.id}`, { role: 'owner' })).status).toBe(204);
    expect((await call(s.admin, 'DELETE', `${team}/members/${s.editor.user.id}`)).status).toBe(204);
    expect((await call(s.admin, 'DELETE', team)).status).toBe(204);
    const rows = await rowsOf(s.organizationId);
    expect(rows.map((row) => [row.action, row.target_id, row.payload])).toEqual([
      ['team.created', teamId, { after: { title: 'Writers', members: [] } }],
      ['team.renamed', teamId, { before: { title: 'Writers' }, after: { title: 'Editors' } }],
      ['team.member_set', teamId, { userId: s.editor.user.id, after: { role: 'owner' } }],
      ['team.member_removed', teamId, { userId: s.editor.user.id }],
      ['team.deleted', teamId, { before: { title: 'Editors' } }],
    ]);
  });

  it('records invitations created and revoked, and API tokens made and revoked, never their secrets', async () => {
    const s = await setup();
    const invited = await call(s.admin, 'POST', `/v1/orgs/${s.organizationId}/invites`, {
      emails: ['new@example.com'],
      role: 'edit',
    });
    expect(invited.status).toBe(200);
    const invitation = (await rowsOf(s.organizationId))[0]!;
    expect(invitation).toMatchObject({
      action: 'invitation.created',
      target_type: 'invitation',
      target_label: 'new@example.com',
    });
    expect(invitation.payload).toEqual({ after: { email: 'new@example.com', role: 'edit', sso: false } });
    expect(
      (await call(s.admin, 'DELETE', `/v1/orgs/${s.organizationId}/email-invites/${invitation.target_id}`)).status,
    ).toBe(205);

    const token = await call(s.admin, 'POST', '/v1/user/tokens', { label: 'ci' });
    expect(token.status).toBe(201);
    const { id: tokenId, token: secret } = token.body as unknown as { id: string; token: string };
    expect((await call(s.admin, 'DELETE', `/v1/user/tokens/${tokenId}`)).status).toBe(204);
    const rows = await rowsOf(s.organizationId);
    expect(rows.map((row) => [row.action, row.target_id])).toEqual([
      ['invitation.created', invitation.target_id],
      ['invitation.revoked', invitation.target_id],
      ['api_token.created', tokenId],
      ['api_token.revoked', tokenId],
    ]);
    expect(rows[2]!.payload).toEqual({ after: { scopes: null, expiresAt: null } });
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('records grants given and taken away on a space', async () => {
    const s = await setup();
    const spaceId = await createSpace(s);
    const url = `/v1/spaces/${spaceId}/permissions/users/${s.reader.user.id}`;
    expect((await call(s.admin, 'PATCH', url, { role: 'edit' })).status).toBe(204);
    expect((await call(s.admin, 'DELETE', url)).status).toBe(205);
    const rows = (await rowsOf(s.organizationId)).filter((row) => row.action.startsWith('permission.'));
    expect(rows.map((row) => [row.action, row.target_type, row.target_id, row.payload])).toEqual([
      ['permission.granted', 'space', spaceId, { users: [s.reader.user.id], teams: [], after: { role: 'edit' } }],
      ['permission.revoked', 'space', spaceId, { users: [s.reader.user.id], teams: [] }],
    ]);
  });

  it('records organization settings that changed, and only those', async () => {
    const s = await setup();
    const url = `/v1/orgs/${s.organizationId}`;
    const org = await call(s.admin, 'GET', url);
    const title = (org.body as unknown as { title: string }).title;
    expect((await call(s.admin, 'PATCH', url, { title: 'Renamed', inviteLinks: false })).status).toBe(200);
    const [row] = await rowsOf(s.organizationId);
    expect(row!.action).toBe('organization.settings_updated');
    expect(row!.payload).toMatchObject({ before: { title }, after: { title: 'Renamed' } });
  });

  it('records SSO providers configured and removed', async () => {
    const s = await setup();
    const made = await call(s.admin, 'POST', `/v1/orgs/${s.organizationId}/saml`, { label: 'Okta' });
    expect(made.status).toBe(201);
    const id = (made.body as unknown as { id: string }).id;
    expect((await call(s.admin, 'DELETE', `/v1/orgs/${s.organizationId}/saml/${id}`)).status).toBe(204);
    const rows = await rowsOf(s.organizationId);
    expect(rows.map((row) => [row.action, row.target_id])).toEqual([
      ['sso.provider_created', id],
      ['sso.provider_deleted', id],
    ]);
  });

  it('records sites published, unpublished and deleted', async () => {
    const s = await setup();
    const made = await call(s.admin, 'POST', `/v1/orgs/${s.organizationId}/sites`, { title: 'Docs' });
    expect(made.status).toBe(201);
    const siteId = (made.body as unknown as { id: string }).id;
    const site = `/v1/orgs/${s.organizationId}/sites/${siteId}`;
    expect((await call(s.admin, 'POST', `${site}/publish`)).status).toBe(200);
    expect((await call(s.admin, 'POST', `${site}/unpublish`)).status).toBe(200);
    expect((await call(s.admin, 'DELETE', site)).status).toBeLessThan(300);
    const rows = (await rowsOf(s.organizationId)).filter((row) => row.target_id === siteId);
    expect(rows.map((row) => [row.action, row.payload])).toEqual([
      ['site.published', { before: { published: false }, after: { published: true } }],
      ['site.unpublished', { before: { published: true }, after: { published: false } }],
      ['site.deleted', { before: { published: false } }],
    ]);
  });
});

describe('spaces, collections and integrations', () => {
  it('records a space’s visibility changed, but not its title', async () => {
    const s = await setup();
    const spaceId = await createSpace(s, 'Policies');
    expect((await call(s.admin, 'PATCH', `/v1/spaces/${spaceId}`, { title: 'Rules' })).status).toBe(200);
    expect((await call(s.admin, 'PATCH', `/v1/spaces/${spaceId}`, { visibility: 'public' })).status).toBe(200);
    const rows = await rowsOf(s.organizationId);
    expect(rows.map((row) => [row.action, row.target_id, row.payload])).toEqual([
      ['space.updated', spaceId, { before: { visibility: 'private' }, after: { visibility: 'public' } }],
    ]);
  });

  it('records a space transferred in both organizations, and a collection deleted', async () => {
    const s = await setup();
    const other = await t.factory.organization(s.admin.user.id);
    const spaceId = await createSpace(s, 'Moving');
    const moved = await call(s.admin, 'POST', `/v1/spaces/${spaceId}/transfer`, { organization: other.id });
    expect(moved.status).toBe(200);
    const [left] = await rowsOf(s.organizationId);
    const [arrived] = await rowsOf(other.id);
    expect([left!.action, left!.target_id, left!.payload]).toEqual([
      'space.transferred',
      spaceId,
      { toOrganization: other.id },
    ]);
    expect([arrived!.action, arrived!.payload]).toEqual(['space.transferred', { fromOrganization: s.organizationId }]);
    expect(arrived!.correlation_id).toBe(left!.correlation_id);

    const collection = await call(s.admin, 'POST', `/v1/orgs/${s.organizationId}/collections`, { title: 'Old' });
    const collectionId = (collection.body as unknown as { id: string }).id;
    expect((await call(s.editor, 'DELETE', `/v1/collections/${collectionId}`)).status).toBe(403);
    expect((await call(s.admin, 'DELETE', `/v1/collections/${collectionId}`)).status).toBeLessThan(300);
    const deleted = (await rowsOf(s.organizationId)).filter((row) => row.action.startsWith('collection.'));
    expect(deleted.map((row) => [row.action, row.target_id, row.target_label, row.payload])).toEqual([
      ['collection.deleted', collectionId, 'Old', { spaces: 0 }],
    ]);
  });

  it('records an integration installed and uninstalled', async () => {
    const s = await setup();
    const name = `audited-${Date.now().toString(36)}`;
    const published = await call(s.admin, 'POST', `/v1/integrations/${name}`, {
      title: 'Audited',
      description: 'Installed and uninstalled',
      script: 'export default {}',
      organization: s.organizationId,
      visibility: 'public',
      scopes: [],
    });
    expect(published.status).toBe(200);
    const installed = await call(s.admin, 'POST', `/v1/integrations/${name}/installations`, {
      organization: s.organizationId,
    });
    expect(installed.status).toBe(201);
    const installationId = (installed.body as unknown as { id: string }).id;
    const again = await call(s.admin, 'POST', `/v1/integrations/${name}/installations`, {
      organization: s.organizationId,
    });
    expect(again.status).toBe(409);
    expect(
      (await call(s.admin, 'DELETE', `/v1/integrations/${name}/installations/${installationId}`)).status,
    ).toBeLessThan(300);
    const rows = (await rowsOf(s.organizationId)).filter((row) => row.target_type === 'integration-installation');
    expect(rows.map((row) => [row.action, row.target_type, row.target_id, row.target_label])).toEqual([
      ['integration.installed', 'integration-installation', installationId, name],
      ['integration.uninstalled', 'integration-installation', installationId, name],
    ]);
  });
});

describe('secrets, webhooks, joins and concurrency', () => {
  it('records a signing secret rotated and a webhook added and removed, never a secret', async () => {
    const s = await setup();
    const name = `rotated-${Date.now().toString(36)}`;
    const published = await call(s.admin, 'POST', `/v1/integrations/${name}`, {
      title: 'Rotated',
      description: 'Its secret rotates',
      script: 'export default {}',
      organization: s.organizationId,
      visibility: 'public',
      scopes: [],
    });
    expect(published.status).toBe(200);
    const rotated = await call(s.admin, 'POST', `/v1/integrations/${name}/signing-secret`);
    expect(rotated.status).toBeLessThan(300);
    const { secret } = rotated.body as unknown as { secret: string };
    const hook = await call(s.admin, 'POST', `/v1/orgs/${s.organizationId}/webhooks`, {
      url: 'https://93.184.215.14/hook',
    });
    expect(hook.status).toBe(201);
    const webhook = hook.body as unknown as { id: string; secret: string };
    expect((await call(s.admin, 'DELETE', `/v1/orgs/${s.organizationId}/webhooks/${webhook.id}`)).status).toBeLessThan(
      300,
    );
    const rows = await rowsOf(s.organizationId);
    expect(rows.map((row) => [row.action, row.target_type])).toEqual([
      ['integration.published', 'integration'],
      ['integration.signing_secret_rotated', 'integration'],
      ['webhook.created', 'webhook'],
      ['webhook.deleted', 'webhook'],
    ]);
    expect(rows[0]!.payload).toEqual({ visibility: 'public', storedValueNames: [] });
    expect(rows[2]!.payload).toEqual({
      after: { url: 'https://93.184.215.14/hook', events: [], space: null, site: null },
    });
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(webhook.secret);
  });

  it('records an invitation accepted as the invitee joining, from their own request', async () => {
    const s = await setup();
    const invited = await call(s.admin, 'POST', `/v1/orgs/${s.organizationId}/invites`, {
      emails: ['joiner@example.com'],
      role: 'comment',
    });
    const link = (invited.body as unknown as { acceptLinks: { invitation: string; url: string }[] }).acceptLinks[0]!;
    const secret = new URL(link.url).searchParams.get('secret')!;
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${s.organizationId}/email-invites/${link.invitation}/accept`,
      payload: { secret, displayName: 'Joiner' },
    });
    expect(accepted.statusCode).toBeLessThan(300);
    const userId = (accepted.json() as { user: { id: string } }).user.id;
    // Recorded at the same instant: in the order of their names.
    const rows = (await rowsOf(s.organizationId))
      .filter((row) => row.action !== 'invitation.created')
      .sort((a, b) => a.action.localeCompare(b.action));
    expect(rows.map((row) => [row.action, row.actor_id, row.actor_label, row.target_id, row.token_id])).toEqual([
      ['invitation.accepted', userId, 'Joiner', link.invitation, null],
      ['member.added', userId, 'Joiner', userId, null],
    ]);
    expect(rows[1]!.payload).toEqual({ after: { role: 'comment' }, via: 'invitation', invitationId: link.invitation });
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('records one deletion when five requests delete the same team at once', async () => {
    const s = await setup();
    const made = await call(s.admin, 'PUT', `/v1/orgs/${s.organizationId}/teams`, { title: 'Raced' });
    const teamId = (made.body as unknown as { id: string }).id;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(s.admin, 'DELETE', `/v1/orgs/${s.organizationId}/teams/${teamId}`)),
    );
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 404)).toHaveLength(4);
    const deletions = (await rowsOf(s.organizationId)).filter((row) => row.action === 'team.deleted');
    expect(deletions).toHaveLength(1);
  });
});

describe('sites, space installations and tokens issued', () => {
  it('records a site’s visibility and custom hostname changed, but not its title', async () => {
    const s = await setup();
    const made = await call(s.admin, 'POST', `/v1/orgs/${s.organizationId}/sites`, { title: 'Handbook' });
    const siteId = (made.body as unknown as { id: string }).id;
    const site = `/v1/orgs/${s.organizationId}/sites/${siteId}`;
    expect((await call(s.admin, 'PATCH', site, { title: 'Guide' })).status).toBe(200);
    expect((await call(s.editor, 'PATCH', site, { visibility: 'unlisted' })).status).toBe(403);
    expect((await call(s.admin, 'PATCH', site, { visibility: 'unlisted', hostname: 'docs.audited.test' })).status).toBe(
      200,
    );
    const rows = (await rowsOf(s.organizationId)).filter((row) => row.target_id === siteId);
    expect(rows.map((row) => [row.action, row.target_label, row.payload])).toEqual([
      [
        'site.updated',
        'Guide',
        {
          before: { visibility: 'public', hostname: null },
          after: { visibility: 'unlisted', hostname: 'docs.audited.test' },
        },
      ],
    ]);
  });

  it('records an integration installed on and uninstalled from a space, on the space', async () => {
    const s = await setup();
    const spaceId = await createSpace(s, 'Integrated');
    const name = `spaced-${Date.now().toString(36)}`;
    await call(s.admin, 'POST', `/v1/integrations/${name}`, {
      title: 'Spaced',
      description: 'Installed on a space',
      script: 'export default {}',
      organization: s.organizationId,
      visibility: 'private',
      target: 'all',
    });
    const installed = await call(s.admin, 'POST', `/v1/integrations/${name}/installations`, {
      organization: s.organizationId,
    });
    const installationId = (installed.body as unknown as { id: string }).id;
    const spaces = `/v1/integrations/${name}/installations/${installationId}/spaces`;
    const onSpace = await call(s.admin, 'POST', spaces, { space: spaceId });
    expect(onSpace.status, JSON.stringify(onSpace.body)).toBe(201);
    expect((await call(s.admin, 'DELETE', `${spaces}/${spaceId}`)).status).toBeLessThan(300);
    const rows = (await rowsOf(s.organizationId)).filter((row) => row.target_id === spaceId);
    expect(rows.map((row) => [row.action, row.payload])).toEqual([
      ['integration.space_installed', { installationId, integration: name }],
      ['integration.space_uninstalled', { installationId, integration: name }],
    ]);
  });

  it('records a first token an admin issues to a member, without its value', async () => {
    const s = await setup();
    const newcomer = await t.factory.user();
    await t.factory.member(s.organizationId, newcomer.id, 'read');
    const issued = await call(s.admin, 'POST', `/v1/orgs/${s.organizationId}/members/${newcomer.id}/tokens`, {
      label: 'First',
    });
    expect(issued.status).toBe(201);
    const { id, token } = issued.body as unknown as { id: string; token: string };
    const [row] = await rowsOf(s.organizationId);
    expect([row!.action, row!.target_id, row!.actor_id, row!.payload.userId]).toEqual([
      'api_token.issued_to_member',
      id,
      s.admin.user.id,
      newcomer.id,
    ]);
    expect(JSON.stringify(row)).not.toContain(token);
  });
});

describe('change requests', () => {
  it('records a change request archived and brought back, not its subject renamed', async () => {
    const s = await setup();
    const spaceId = await createSpace(s, 'Drafts');
    const made = await call(s.editor, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Rework' });
    expect(made.status).toBe(201);
    const changeRequestId = (made.body as unknown as { id: string }).id;
    const url = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`;
    expect((await call(s.editor, 'PATCH', url, { subject: 'Rework it' })).status).toBe(200);
    expect((await call(s.editor, 'PATCH', url, { status: 'archived' })).status).toBe(200);
    expect((await call(s.editor, 'PATCH', url, { status: 'open' })).status).toBe(200);
    const rows = (await rowsOf(s.organizationId)).filter((row) => row.target_id === changeRequestId);
    expect(rows.map((row) => [row.action, row.actor_id, row.token_id, row.payload])).toEqual([
      [
        'change_request.archived',
        s.editor.user.id,
        s.editor.tokenId,
        { spaceId, before: { status: 'draft' }, after: { status: 'archived' } },
      ],
      [
        'change_request.unarchived',
        s.editor.user.id,
        s.editor.tokenId,
        { spaceId, before: { status: 'archived' }, after: { status: 'open' } },
      ],
    ]);
  });
});
