import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';
import { InsightsRecorder, insightsRecorder } from '../src/sites/insights/recorder.js';
import { purgeInsightEvents } from '../src/sites/insights/purge.js';

const t = useTestApp({
  config: () => ({ insights: { retentionDays: 30, countryHeader: 'cf-ipcountry' } }),
});
const api = contentApi(() => t.app);

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let admin: Account;
let outsider: Team;

beforeAll(async () => {
  team = await t.factory.team(['read']);
  admin = team.admin;
  outsider = await t.factory.team();
});

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

type Method = 'GET' | 'POST' | 'PUT';
const call = (account: Account | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account?.headers ?? {}, ...(payload ? { payload } : {}) });
const insightsPath = (siteId: string, organizationId = team.organization.id) =>
  `/v1/orgs/${organizationId}/sites/${siteId}/insights`;
const flush = () => insightsRecorder(t.app.context).flush();
const eventRows = (siteId: string) =>
  t.db.selectFrom('site_insight_events').selectAll().where('site_id', '=', siteId).orderBy('id').execute();

/** A published site with one space of two pages, `intro` and `guide`, taking feedback. */
async function publishedSite() {
  const organizationId = team.organization.id;
  const created = await call(admin, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Acme Docs' });
  expect(created.statusCode, created.body).toBe(201);
  const siteId = (created.json() as { id: string }).id;
  const space = await api.createSpace(admin, organizationId, { title: 'Handbook' });
  await api.change(admin, space.id, [
    { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Welcome.' } },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
  ]);
  const added = await call(admin, 'POST', `/v1/orgs/${organizationId}/sites/${siteId}/site-spaces`, {
    spaceId: space.id,
  });
  expect(added.statusCode, added.body).toBe(201);
  const customization = await call(admin, 'GET', `/v1/orgs/${organizationId}/sites/${siteId}/customization`);
  const withFeedback = { ...customization.json(), feedback: { enabled: true } };
  const put = await call(admin, 'PUT', `/v1/orgs/${organizationId}/sites/${siteId}/customization`, withFeedback);
  expect(put.statusCode, put.body).toBe(200);
  expect((await call(admin, 'POST', `/v1/orgs/${organizationId}/sites/${siteId}/publish`)).statusCode).toBe(200);
  const pages = await t.db
    .selectFrom('site_spaces')
    .select('id')
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return { siteId, spaceId: space.id, siteSpaceId: pages.id };
}

const visit = (siteId: string, path: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/s/${siteId}/${path}`, headers: { 'user-agent': CHROME, ...headers } });

describe('the published reader records', () => {
  it('page views, 404s and searches, with no cookie and no address kept', async () => {
    const { siteId, spaceId, siteSpaceId } = await publishedSite();
    const viewed = await visit(siteId, 'intro?utm_source=newsletter&q=private', {
      referer: 'https://news.example/post?id=7',
      'accept-language': 'fr-CH, fr;q=0.9',
      'cf-ipcountry': 'ch',
    });
    expect(viewed.statusCode).toBe(200);
    expect(viewed.headers['set-cookie']).toBeUndefined();
    expect((await visit(siteId, 'nowhere')).statusCode).toBe(404);
    expect((await visit(siteId, '~/search?q=install')).statusCode).toBe(200);
    await flush();

    const rows = await eventRows(siteId);
    expect(rows.map((row) => [row.event_type, row.url_path, row.page_id === null])).toEqual([
      ['page_view', `/s/${siteId}/intro`, false],
      ['page_view', `/s/${siteId}/nowhere`, true],
      ['search_type_query', `/s/${siteId}/~/search`, true],
    ]);
    expect(rows[0]).toMatchObject({
      organization_id: team.organization.id,
      site_space_id: siteSpaceId,
      space_id: spaceId,
      display_context: 'site',
      referrer: 'https://news.example/post',
      referrer_domain: 'news.example',
      utm_source: 'newsletter',
      country: 'CH',
      language: 'fr-CH',
      browser: 'chrome',
      os: 'windows',
      device: 'desktop',
      bot: null,
      authenticated: false,
    });
    expect(rows[0]!.url).toMatch(new RegExp(`^http://[^/?]+/s/${siteId}/intro$`));
    expect(rows[2]!.search_query).toBe('install');
    // The salt of the visitors' hashes is the day's alone, kept apart from the events.
    const salts = await t.db.selectFrom('site_insight_salts').select(['day', 'salt']).execute();
    expect(salts).toHaveLength(1);
    expect(salts[0]!.salt).toHaveLength(32);
    // One visitor (the same address and browser), and nothing that leads back to them.
    expect(new Set(rows.map((row) => row.visitor_hash)).size).toBe(1);
    const stored = JSON.stringify(rows);
    for (const secret of ['127.0.0.1', 'Chrome/120', 'q=private', 'private', 'id=7'])
      expect(stored).not.toContain(secret);
  });

  it('markdown and llms.txt requests', async () => {
    const { siteId } = await publishedSite();
    expect((await visit(siteId, 'intro.md')).statusCode).toBe(200);
    expect((await visit(siteId, 'llms.txt')).statusCode).toBe(200);
    expect((await visit(siteId, 'llms-full.txt')).statusCode).toBe(200);
    expect((await visit(siteId, 'sitemap.xml')).statusCode).toBe(200);
    await flush();
    const rows = await eventRows(siteId);
    expect(rows.map((row) => [row.event_type, row.llms_variant])).toEqual([
      ['page_markdown_request', null],
      ['llms_request', 'standard'],
      ['llms_request', 'full'],
    ]);
  });

  it('in batches, dropping and counting what is past the queue’s bound rather than waiting', async () => {
    const { siteId } = await publishedSite();
    expect((await visit(siteId, 'intro')).statusCode).toBe(200);
    await flush();
    const [viewed] = await eventRows(siteId);
    const { id: _id, ...row } = viewed!;
    const recorder = new InsightsRecorder(t.app.context);
    for (let index = 0; index < 10_001; index += 1) recorder.record({ ...row });
    expect(recorder.dropped).toBe(1);
    await recorder.close();
    recorder.record({ ...row });
    expect(recorder.dropped).toBe(2);
    const count = await t.db
      .selectFrom('site_insight_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('site_id', '=', siteId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10_001);
  });

  it('feedback from the form under a page, only from the site’s own pages', async () => {
    const { siteId, spaceId } = await publishedSite();
    const page = await visit(siteId, 'intro');
    expect(page.body).toContain('Was this page helpful?');
    expect(page.body).toContain(`/s/${siteId}/~/feedback"`);
    const pageId = page.body.match(/name="page" value="([^"]+)"/)![1]!;
    const post = (form: Record<string, string>, headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/s/${siteId}/~/feedback`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': CHROME, ...headers },
        payload: new URLSearchParams(form).toString(),
      });
    const origin = new URL(page.body.match(/action="([^"]*\/~\/feedback)"/)![1]!).origin;

    const sent = await post({ space: spaceId, page: pageId, rating: 'good', comment: 'Clear and short' }, { origin });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.body).toContain('Thank you');
    expect((await post({ space: spaceId, page: pageId, rating: 'bad', comment: '' }, { origin })).statusCode).toBe(200);

    // Another site's page, an unknown page, a bad rating: refused, nothing kept.
    expect(
      (await post({ space: spaceId, page: pageId, rating: 'good' }, { origin: 'https://evil.example' })).statusCode,
    ).toBe(403);
    expect(
      (await post({ space: spaceId, page: pageId, rating: 'good' }, { 'sec-fetch-site': 'cross-site' })).statusCode,
    ).toBe(403);
    expect((await post({ space: spaceId, page: 'nope', rating: 'good' }, { origin })).statusCode).toBe(404);
    expect((await post({ space: spaceId, page: pageId, rating: 'great' }, { origin })).statusCode).toBe(400);
    expect(
      (await post({ space: spaceId, page: pageId, rating: 'ok', comment: 'x'.repeat(513) }, { origin })).statusCode,
    ).toBe(400);
    await flush();
    const feedback = (await eventRows(siteId)).filter((row) => row.event_type !== 'page_view');
    expect(feedback.map((row) => [row.event_type, row.feedback_rating, row.feedback_comment, row.page_id])).toEqual([
      ['page_post_feedback_comment', 'good', 'Clear and short', pageId],
      ['page_post_feedback', 'bad', null, pageId],
    ]);

    const ratings = await call(team.member('read'), 'POST', `${insightsPath(siteId)}/events/aggregate`, {
      select: [{ column: 'pageFeedbackRating' }],
      groupBy: [{ column: 'page' }],
      where: [{ column: 'eventType', values: ['page_post_feedback', 'page_post_feedback_comment'] }],
      range: 'last24Hours',
    });
    expect(ratings.statusCode, ratings.body).toBe(200);
    expectNewestSpecResponse('aggregateSiteEvents', 200, ratings.json());
    expect(ratings.json()).toEqual({
      columns: [
        { column: 'page', values: [{ page: pageId, space: spaceId }] },
        { column: 'pageFeedbackRating', values: [{ ok: 0, good: 1, bad: 1 }] },
      ],
    });
  });
});

const sessionOf = (visitorId: string) => ({
  visitorId,
  sessionId: `${visitorId}-session`,
  cookies: { tracking: 'no' },
  ip: '203.0.113.9',
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile Safari/604.1',
  language: 'en',
  referrer: 'https://search.example/?q=acme',
});
const locationOf = (page: string | null, spaceId: string | null) => ({
  url: `https://docs.acme.example/${page ?? 'missing'}?utm_campaign=launch`,
  siteSection: null,
  siteSpace: null,
  siteShareKey: null,
  space: spaceId,
  revision: null,
  page,
});

describe('site insights through the API', () => {
  it('track events, aggregate them as the spec answers and list visitor segments', async () => {
    const { siteId, spaceId } = await publishedSite();
    const address = await listen(t.app);
    const client = newestOfficialClient(address, admin.token);
    const events = [
      { type: 'page_view', session: sessionOf('alice'), location: locationOf('p1', spaceId) },
      { type: 'page_view', session: sessionOf('alice'), location: locationOf('p2', spaceId) },
      { type: 'page_view', session: sessionOf('bob'), location: locationOf('p1', spaceId) },
      { type: 'page_view', session: sessionOf('bob'), location: locationOf(null, spaceId) },
      {
        type: 'search_open_result',
        query: 'install',
        result: { recordId: 'r1' },
        session: sessionOf('bob'),
        location: locationOf('p1', spaceId),
      },
    ] as const;
    const tracked = await client.orgs.trackEventsInSiteById(team.organization.id, siteId, {
      events: events as never,
    });
    expect(tracked.status).toBe(204);
    const rows = await eventRows(siteId);
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({
      url: 'https://docs.acme.example/p1',
      utm_campaign: 'launch',
      os: 'ios',
      device: 'mobile',
      browser: 'safari',
    });
    const stored = JSON.stringify(rows);
    for (const secret of ['203.0.113.9', 'alice', 'tracking', 'q=acme', 'iPhone OS'])
      expect(stored).not.toContain(secret);

    const byPage = await client.orgs.aggregateSiteEvents(team.organization.id, siteId, {
      select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
      groupBy: [{ column: 'page' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
      range: 'last24Hours',
    } as unknown as Parameters<typeof client.orgs.aggregateSiteEvents>[2]);
    expectNewestSpecResponse('aggregateSiteEvents', 200, byPage.data);
    expect(byPage.data).toEqual({
      columns: [
        {
          column: 'page',
          values: [
            { page: 'p1', space: spaceId },
            { page: null, space: spaceId },
            { page: 'p2', space: spaceId },
          ],
        },
        { column: 'eventsCount', values: [2, 1, 1] },
        { column: 'visitorsCount', values: [2, 1, 1] },
        { column: 'sessionsCount', values: [2, 1, 1] },
      ],
    });

    const now = new Date();
    const byDay = await call(admin, 'POST', `${insightsPath(siteId)}/events/aggregate`, {
      select: [{ column: 'visitorsCount' }],
      groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'referrerDomain' }],
      where: [{ column: 'eventsCount', operator: 'greaterThan', values: [1] }],
      order: { by: { column: 'visitorsCount' }, direction: 'desc' },
      range: {
        from: new Date(now.getTime() - 86_400_000).toISOString(),
        to: new Date(now.getTime() + 60_000).toISOString(),
      },
    });
    expect(byDay.statusCode, byDay.body).toBe(200);
    expect(byDay.json()).toEqual({
      columns: [
        { column: 'datetime', values: [`${now.toISOString().slice(0, 10)}T00:00:00.000Z`] },
        { column: 'referrerDomain', values: ['search.example'] },
        { column: 'visitorsCount', values: [2] },
      ],
    });

    const brokenUrls = await call(admin, 'POST', `${insightsPath(siteId)}/events/aggregate`, {
      groupBy: [{ column: 'urlPath' }],
      where: [
        { column: 'page', values: [null] },
        { column: 'eventType', values: ['page_view', 'search_open_result'] },
      ],
      range: 'last7Days',
    });
    expect(brokenUrls.json()).toEqual({
      columns: [
        { column: 'urlPath', values: [] },
        { column: 'eventsCount', values: [] },
      ],
    });

    const segments = await client.orgs.listSiteVisitorSegments(team.organization.id, siteId);
    expectNewestSpecResponse('listSiteVisitorSegments', 200, segments.data);
    expect(segments.data).toEqual({
      count: 1,
      items: [{ title: 'Anonymous visitors', claims: {}, events: 5, visitors: 2, sessions: 2 }],
    });
  });

  it('refuse what is not recorded here, or out of bounds, and keep nothing of a refused batch', async () => {
    const { siteId, spaceId } = await publishedSite();
    const track = (event: object) =>
      call(admin, 'POST', `${insightsPath(siteId)}/events`, {
        events: [{ type: 'page_view', session: sessionOf('carol'), location: locationOf('p1', spaceId) }, event],
      });
    const base = { session: sessionOf('carol'), location: locationOf('p1', spaceId) };
    const refusals: Array<[object, string]> = [
      [{ ...base, type: 'ad_click' }, 'body/events/1/type ad_click events are not recorded here'],
      [{ ...base, type: 'page_view', timestamp: '2020-01-01T00:00:00.000Z' }, 'within 5 minutes'],
      [{ ...base, type: 'search_type_query' }, "must have required property 'query'"],
      [{ ...base, type: 'page_post_feedback_comment', feedback: { rating: 'good' } }, 'feedback/comment'],
      [{ ...base, type: 'page_view', location: { ...base.location, url: 'ftp://x.example/' } }, 'http(s)'],
    ];
    for (const [event, message] of refusals) {
      const refused = await track(event);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.message).toContain(message);
    }
    const tooMany = await call(admin, 'POST', `${insightsPath(siteId)}/events`, {
      events: Array.from({ length: 101 }, () => ({ ...base, type: 'page_view' })),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(await eventRows(siteId)).toEqual([]);

    const aggregate = (body: object) => call(admin, 'POST', `${insightsPath(siteId)}/events/aggregate`, body);
    const badQueries: Array<[object, string]> = [
      [{ groupBy: [{ column: 'visitorGeoPoint' }], range: 'last7Days' }, 'visitorGeoPoint is not recorded here'],
      [{ select: [{ column: 'visitorClaim', claim: 'plan' }], range: 'last7Days' }, 'claims are not kept'],
      [{ groupBy: [{ column: 'eventsCount' }], range: 'last7Days' }, 'is a count'],
      [{ where: [{ column: 'eventType', values: ['nope'] }], range: 'last7Days' }, 'body/where/0/values/0'],
      [{ where: [{ column: 'urlPath', operator: 'greaterThan', values: ['/a'] }], range: 'last7Days' }, 'compares'],
      [{ range: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } }, 'before'],
      [{ order: { by: { column: 'url' }, direction: 'asc' }, range: 'last7Days' }, 'body/order/by'],
      [{ range: 'lastDecade' }, 'body/range'],
      [{ range: 'last7Days', limit: 1001 }, 'body/limit'],
    ];
    for (const [body, message] of badQueries) {
      const refused = await aggregate(body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().error.message).toContain(message);
    }
  });

  it('show nothing of a site to another organization, and need the insights scope to read', async () => {
    const { siteId, spaceId } = await publishedSite();
    const event = { type: 'page_view', session: sessionOf('dave'), location: locationOf('p1', spaceId) };
    for (const [organizationId, account] of [
      [team.organization.id, outsider.admin],
      [outsider.organization.id, outsider.admin],
    ] as const) {
      const path = insightsPath(siteId, organizationId);
      expect((await call(account, 'POST', `${path}/events`, { events: [event] })).statusCode).toBe(404);
      expect((await call(account, 'POST', `${path}/events/aggregate`, { range: 'last7Days' })).statusCode).toBe(404);
      expect((await call(account, 'GET', `${path}/visitor-segments`)).statusCode).toBe(404);
    }
    expect(await eventRows(siteId)).toEqual([]);
    expect((await call(undefined, 'GET', `${insightsPath(siteId)}/visitor-segments`)).statusCode).toBe(401);
    const siteReader = await t.factory.token(team.member('read').user.id, { scopes: ['site:read'] });
    expect(
      (await call(siteReader, 'POST', `${insightsPath(siteId)}/events/aggregate`, { range: 'last7Days' })).statusCode,
    ).toBe(403);
    expect((await call(siteReader, 'POST', `${insightsPath(siteId)}/events`, { events: [event] })).statusCode).toBe(
      403,
    );
    const member = await call(team.member('read'), 'POST', `${insightsPath(siteId)}/events`, { events: [event] });
    expect(member.statusCode).toBe(403);
    expect(member.json().error.message).toBe('Tracking events needs the admin role in the organization');
    const insightsReader = await t.factory.token(team.member('read').user.id, { scopes: ['site:insights:read'] });
    const read = await call(insightsReader, 'POST', `${insightsPath(siteId)}/events/aggregate`, { range: 'last7Days' });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ columns: [{ column: 'eventsCount', values: [0] }] });
  });

  it('keep events for INSIGHTS_RETENTION_DAYS', async () => {
    const { siteId, spaceId } = await publishedSite();
    const tracked = await call(admin, 'POST', `${insightsPath(siteId)}/events`, {
      events: [{ type: 'page_view', session: sessionOf('erin'), location: locationOf('p1', spaceId) }],
    });
    expect(tracked.statusCode).toBe(204);
    await t.db
      .updateTable('site_insight_events')
      .set({ occurred_at: new Date(Date.now() - 31 * 86_400_000) })
      .where('site_id', '=', siteId)
      .execute();
    expect(await purgeInsightEvents(t.app.context)).toBeGreaterThanOrEqual(1);
    expect(await eventRows(siteId)).toEqual([]);
  });
});
