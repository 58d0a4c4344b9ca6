import { describe, expect, it } from 'vitest';
import { expectSpecResponse } from './support/spec.js';

describe('the spec validator used by the conformance tests', () => {
  it('rejects a body that breaks the spec, so its passes mean something', () => {
    expect(() => expectSpecResponse('getOrganizationById', 200, { object: 'organization', id: 'x' })).toThrow(
      /must have required property/,
    );
    expect(() =>
      expectSpecResponse('getAuthenticatedUser', 200, {
        object: 'user',
        id: 'x',
        displayName: 'X',
        urls: { location: 'not a uri' },
      }),
    ).toThrow(/must match format "uri"/);
    expect(() => expectSpecResponse('getOrganizationById', 404, { error: { code: 400, message: 'x' } })).toThrow();
  });

  it('accepts null where the spec says nullable, and nothing else in its place', () => {
    const organization = {
      object: 'organization',
      id: 'x',
      title: 'Valid',
      createdAt: '2026-01-01T00:00:00.000Z',
      emailDomains: [],
      type: 'business',
      plan: 'free_2024',
      inviteLinks: true,
      mergeRules: { type: 'none' },
      urls: { location: 'http://a.test/v1/orgs/x', app: 'http://a.test/app/o/x' },
      trial: { status: 'notapplicable' },
      permissions: Object.fromEntries(
        [
          'view',
          'admin',
          'ownTeam',
          'createContent',
          'createOpenAPISpec',
          'ingestConversations',
          'viewBilling',
          'listMembers',
          'listTeams',
          'listIntegrations',
          'listInstallations',
          'installIntegration',
        ].map((k) => [k, false]),
      ),
    };
    expect(() => expectSpecResponse('getOrganizationById', 200, { ...organization, defaultRole: null })).not.toThrow();
    expect(() => expectSpecResponse('getOrganizationById', 200, { ...organization, defaultRole: 'owner' })).toThrow(
      /defaultRole/,
    );
    expect(() =>
      expectSpecResponse('getOrganizationById', 404, { error: { code: 404, message: 'Not found' } }),
    ).not.toThrow();
  });
});
