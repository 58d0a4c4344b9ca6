import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import { publishEveryBlockSite } from './support/every-block-site.js';
import type { Account } from './support/factory.js';

const t = useTestApp();

let admin: Account;
let organizationId: string;
beforeAll(async () => {
  const team = await t.factory.team();
  admin = team.admin;
  organizationId = team.organization.id;
});

describe('the app reader, on a page of every GitBook block', () => {
  it('shows members every if block under its condition, with the blocks the published reader shows', async () => {
    const { spaceId } = await publishEveryBlockSite(t.app, admin, organizationId);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/app/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
      payload: new URLSearchParams({ token: admin.token }).toString(),
    });
    expect(signedIn.statusCode, signedIn.body).toBe(303);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const space = await t.app.inject({ method: 'GET', url: `/v1/spaces/${spaceId}`, headers: admin.headers });
    const appUrl = new URL((space.json() as { urls: { app: string } }).urls.app).pathname;
    const page = await t.app.inject({ method: 'GET', url: `${appUrl}/every-block`, headers: { cookie } });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain(
      '<div class="conditional"><p class="conditional-label">Shown to visitors when <code>visitor.claims.unsigned.beta == true</code></p>' +
        '<p>Only for beta testers.</p></div>',
    );
    expect(page.body).toContain('<ol class="stepper">');
    expect(page.body).toMatch(/<img src="[^"]+light\.png[^"]*" alt="A diagram" width="1" height="1"/);
  });
});
