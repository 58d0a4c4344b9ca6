/**
 * Links as GitBook resolves them, for docs written through the API the way
 * Git Sync lays them out (`a/b.md`, `a/b/README.md` for a page with
 * subpages), in batches: README folders, links to pages of a later write,
 * the link report before and after, and heading anchors.
 */
import { describe, expect, it } from 'vitest';
import { writeSpaceContent } from '../src/change-requests/changes/write.js';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

const t = useTestApp();
const api = contentApi(() => t.app);

interface Written {
  changes: Array<{ object: string; ref?: string; page: { id: string } | string }>;
}

/** The page id of each ref a write answered with. */
function idsOf(written: Written): Record<string, string> {
  return Object.fromEntries(
    written.changes.flatMap((change) =>
      change.ref && typeof change.page === 'object' ? [[change.ref, change.page.id]] : [],
    ),
  );
}

async function team() {
  const { admin, organization } = await t.factory.team();
  const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
  return { admin, organizationId: organization.id, spaceId: space.id };
}

async function write(account: Account, spaceId: string, changeRequestId: string, changes: unknown[]) {
  const res = await api.writeContent(account, spaceId, changeRequestId, changes, { compat: 'false' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Written;
}

/** A page's stored markdown in a change request (or the space, without one), frontmatter left out. */
async function markdownOf(account: Account, spaceId: string, pageId: string, changeRequestId?: string) {
  const base = changeRequestId ? `/v1/spaces/${spaceId}/change-requests/${changeRequestId}` : `/v1/spaces/${spaceId}`;
  const res = await api.read(account, `${base}/content/page/${pageId}`, { format: 'markdown' });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().markdown as string).replace(/^---\n[\s\S]*?\n---\n+/, '');
}

interface LinkItem {
  status: string;
  targetReference: { kind: string; url?: string; page?: { id: string }; internalLocation?: { anchor: string } };
  locationReferences: Array<{ page: { id: string } }>;
}

/** The report of a change request (or the space) as lines: status, target, linking pages. */
async function report(account: Account, spaceId: string, names: Record<string, string>, changeRequestId?: string) {
  const base = changeRequestId ? `/v1/spaces/${spaceId}/change-requests/${changeRequestId}` : `/v1/spaces/${spaceId}`;
  const res = await api.read(account, `${base}/links`);
  expect(res.statusCode, res.body).toBe(200);
  const nameOf = new Map(Object.entries(names).map(([name, id]) => [id, name]));
  const body = res.json() as { stats: { broken: { total: number } }; items: LinkItem[] };
  const lines = body.items.map((item) => {
    const target = item.targetReference;
    const shown =
      target.kind === 'url'
        ? target.url
        : `${nameOf.get(target.page!.id) ?? target.page!.id}${target.internalLocation ? `#${target.internalLocation.anchor}` : ''}`;
    const from = item.locationReferences.map((location) => nameOf.get(location.page.id) ?? location.page.id);
    return `${item.status} ${shown} <- ${from.join(', ')}`;
  });
  return { broken: body.stats.broken.total, lines };
}

describe('relative links of README pages', () => {
  it('start from the page’s own folder when written by Git Sync path, and from its parent otherwise', async () => {
    const { admin, spaceId } = await team();
    const cr = await api.openChangeRequest(admin, spaceId);
    const written = await write(admin, spaceId, cr, [
      {
        operation: 'insert_page',
        ref: 'README.md',
        title: 'Welcome',
        slug: 'welcome',
        document: { markdown: 'Begin with [the tour](tour/) and [its first step](tour/first-step.md).\n' },
      },
      {
        operation: 'insert_page',
        ref: 'tour/README.md',
        title: 'Tour',
        slug: 'tour',
        document: {
          markdown:
            'Take the [first step](first-step.md), see [the same](./first-step.md#what-you-need) or go [home](../README.md).\n',
        },
      },
      {
        operation: 'insert_page',
        ref: 'tour/first-step.md',
        into: 'tour/README.md',
        title: 'First step',
        slug: 'first-step',
        document: {
          markdown: [
            'Back to [the tour](./), its [overview](README.md) or the [other first step](../first-step.md).',
            '',
            '## What you need',
            '',
            'A computer.',
            '',
          ].join('\n'),
        },
      },
      // A page at the top with the same name: a README's link resolved from the wrong folder would land here.
      {
        operation: 'insert_page',
        ref: 'first-step.md',
        title: 'First step (top)',
        slug: 'first-step',
        document: { markdown: 'Elsewhere.\n' },
      },
    ]);
    const ids = idsOf(written);
    const [home, tour, step, top] = ['README.md', 'tour/README.md', 'tour/first-step.md', 'first-step.md'].map(
      (ref) => ids[ref]!,
    );

    expect(await markdownOf(admin, spaceId, home!, cr)).toBe(
      `Begin with [the tour](/pages/${tour}) and [its first step](/pages/${step}).\n`,
    );
    expect(await markdownOf(admin, spaceId, tour!, cr)).toBe(
      `Take the [first step](/pages/${step}), see [the same](/pages/${step}#what-you-need) or go [home](/pages/${home}).\n`,
    );
    expect(await markdownOf(admin, spaceId, step!, cr)).toContain(
      `Back to [the tour](/pages/${tour}), its [overview](/pages/${tour}) or the [other first step](/pages/${top}).`,
    );
    const names = { home: home!, tour: tour!, step: step!, top: top! };
    expect((await report(admin, spaceId, names, cr)).broken).toBe(0);
  });

  it('start from the page’s own folder when written into the tree with subpages', async () => {
    const { admin, spaceId } = await team();
    const cr = await api.openChangeRequest(admin, spaceId);
    const written = await write(admin, spaceId, cr, [
      {
        operation: 'insert_page',
        ref: 'g',
        title: 'Guide',
        document: { markdown: 'Read [installing](installing.md) first, then [the top page](../installing.md).\n' },
      },
      {
        operation: 'insert_page',
        ref: 'g-installing',
        into: 'g',
        title: 'Installing',
        document: { markdown: 'Then [configure](configuring.md) it, from the [guide](./).\n' },
      },
      {
        operation: 'insert_page',
        ref: 'g-configuring',
        into: 'g',
        title: 'Configuring',
        document: { markdown: 'Set.\n' },
      },
      {
        operation: 'insert_page',
        ref: 'top',
        title: 'Installing',
        slug: 'installing',
        document: { markdown: 'Top.\n' },
      },
    ]);
    const { g: guide, 'g-installing': installing, 'g-configuring': configuring, top } = idsOf(written);
    expect(await markdownOf(admin, spaceId, guide!, cr)).toBe(
      `Read [installing](/pages/${installing}) first, then [the top page](/pages/${top}).\n`,
    );
    // A page without subpages is `guide/installing.md`: its links start from `guide/`.
    expect(await markdownOf(admin, spaceId, installing!, cr)).toBe(
      `Then [configure](/pages/${configuring}) it, from the [guide](/pages/${guide}).\n`,
    );
  });
});

describe('links GitBook writes in HTML and tags', () => {
  it('resolve as markdown links do, now or in a later write, and code showing them is left alone', async () => {
    const { admin, spaceId } = await team();
    const cr = await api.openChangeRequest(admin, spaceId);
    const cards = [
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead>',
      '<tbody><tr><td>Basics</td><td><a href="basics.md">basics.md</a></td></tr>',
      '<tr><td>Later</td><td><a href="later.md#top">later.md</a></td></tr></tbody></table>',
    ].join('');
    const markdown = [
      cards,
      '',
      '{% content-ref url="later.md" %}',
      '[later.md](later.md)',
      '{% endcontent-ref %}',
      '',
      '```html',
      '<a href="basics.md">an example</a> {% content-ref url="basics.md" %}',
      '```',
      '',
    ].join('\n');
    const first = await write(admin, spaceId, cr, [
      { operation: 'insert_page', ref: 'home.md', title: 'Home', document: { markdown } },
      { operation: 'insert_page', ref: 'basics.md', title: 'Basics', document: { markdown: 'B.\n' } },
    ]);
    const { 'home.md': home, 'basics.md': basics } = idsOf(first);
    const resolvedNow = markdown.replace('<a href="basics.md">basics.md', `<a href="/pages/${basics}">basics.md`);
    expect(await markdownOf(admin, spaceId, home!, cr)).toBe(resolvedNow);
    expect((await report(admin, spaceId, { home: home!, basics: basics! }, cr)).lines).toEqual([
      'ok basics <- home',
      'broken later.md <- home',
      'broken later.md#top <- home',
    ]);

    const second = await write(admin, spaceId, cr, [
      { operation: 'insert_page', ref: 'later.md', title: 'Later', document: { markdown: '## Top\n\nT.\n' } },
    ]);
    const later = idsOf(second)['later.md']!;
    expect(await markdownOf(admin, spaceId, home!, cr)).toBe(
      resolvedNow
        .replace('href="later.md#top"', `href="/pages/${later}#top"`)
        .replace(
          '{% content-ref url="later.md" %}\n[later.md](later.md)',
          `{% content-ref url="/pages/${later}" %}\n[later.md](/pages/${later})`,
        ),
    );
    expect((await report(admin, spaceId, { home: home!, basics: basics!, later }, cr)).broken).toBe(0);
  });
});

describe('a link to a page of a later write', () => {
  it('is broken in the report until a later write of the change request adds the page, which resolves it', async () => {
    const { admin, spaceId } = await team();
    const cr = await api.openChangeRequest(admin, spaceId);
    const first = await write(admin, spaceId, cr, [
      {
        operation: 'insert_page',
        ref: 'start.md',
        title: 'Start',
        document: {
          markdown:
            'Go to [the next part](next.md#part-two), [a later one](later/end.md) and [the web](https://example.com).\n',
        },
      },
    ]);
    const start = idsOf(first)['start.md']!;
    expect(await markdownOf(admin, spaceId, start, cr)).toBe(
      'Go to [the next part](next.md#part-two), [a later one](later/end.md) and [the web](https://example.com).\n',
    );
    expect(await report(admin, spaceId, { start }, cr)).toEqual({
      broken: 2,
      lines: ['ok https://example.com <- start', 'broken later/end.md <- start', 'broken next.md#part-two <- start'],
    });

    const second = await write(admin, spaceId, cr, [
      {
        operation: 'insert_page',
        ref: 'next.md',
        title: 'Next',
        document: { markdown: 'One.\n\n## Part two\n\nTwo.\n' },
      },
    ]);
    const next = idsOf(second)['next.md']!;
    // The earlier page is written again by this write, with its link resolved.
    expect(
      second.changes.map((change) => [change.object, typeof change.page === 'object' ? change.page.id : change.page]),
    ).toEqual([
      ['created_page', next],
      ['updated_page', start],
    ]);
    expect(await markdownOf(admin, spaceId, start, cr)).toBe(
      `Go to [the next part](/pages/${next}#part-two), [a later one](later/end.md) and [the web](https://example.com).\n`,
    );
    expect((await report(admin, spaceId, { start, next }, cr)).broken).toBe(1);

    // The last missing page comes in a third write, under a folder page of its own.
    const third = await write(admin, spaceId, cr, [
      {
        operation: 'insert_page',
        ref: 'later/README.md',
        title: 'Later',
        slug: 'later',
        document: { markdown: 'L.\n' },
      },
      {
        operation: 'insert_page',
        ref: 'later/end.md',
        into: 'later/README.md',
        title: 'End',
        slug: 'end',
        document: { markdown: 'The end.\n' },
      },
    ]);
    const end = idsOf(third)['later/end.md']!;
    expect(await markdownOf(admin, spaceId, start, cr)).toBe(
      `Go to [the next part](/pages/${next}#part-two), [a later one](/pages/${end}) and [the web](https://example.com).\n`,
    );
    const names = { start, next, end };
    expect(await report(admin, spaceId, names, cr)).toEqual({
      broken: 0,
      lines: ['ok end <- start', 'ok next#part-two <- start', 'ok https://example.com <- start'],
    });

    // A merge keeps the resolution: the space's page reads the same.
    const merged = await api.merge(admin, spaceId, cr);
    expect(merged.json()).toMatchObject({ result: 'merge' });
    expect(await markdownOf(admin, spaceId, start)).toBe(
      `Go to [the next part](/pages/${next}#part-two), [a later one](/pages/${end}) and [the web](https://example.com).\n`,
    );
    expect((await report(admin, spaceId, names)).broken).toBe(0);
  });

  it('of another change request is resolved there, from the space’s pages that named it', async () => {
    const { admin, spaceId } = await team();
    const { written } = await api.change(admin, spaceId, [
      { operation: 'insert_page', ref: 'a.md', title: 'A', slug: 'a', document: { markdown: 'See [b](b.md).\n' } },
    ]);
    const a = idsOf(written as Written)['a.md']!;
    expect((await report(admin, spaceId, { a })).lines).toEqual(['broken b.md <- a']);

    const { written: later } = await api.change(admin, spaceId, [
      { operation: 'insert_page', title: 'B', slug: 'b', document: { markdown: 'Here.\n' } },
    ]);
    const b = (later as Written).changes.find((change) => change.object === 'created_page')!.page as { id: string };
    expect(await markdownOf(admin, spaceId, a)).toBe(`See [b](/pages/${b.id}).\n`);
    expect((await report(admin, spaceId, { a, b: b.id })).lines).toEqual(['ok b <- a']);
  });

  it('is resolved by a write straight into the space, as an import makes one', async () => {
    const { admin, organizationId, spaceId } = await team();
    const { written } = await api.change(admin, spaceId, [
      { operation: 'insert_page', ref: 'intro.md', title: 'Intro', document: { markdown: 'Then [setup](setup/).\n' } },
    ]);
    const intro = idsOf(written as Written)['intro.md']!;
    const imported = await writeSpaceContent(t.app.context, { organizationId, spaceId, userId: admin.user.id }, [
      {
        operation: 'insert_page',
        ref: 'setup/README.md',
        title: 'Setup',
        slug: 'setup',
        document: { markdown: 'S.\n' },
      },
    ]);
    const setup = imported.outcomes.find((outcome) => outcome.object === 'created_page')!.page;
    expect(imported.outcomes).toEqual([
      { object: 'created_page', page: setup, ref: 'setup/README.md' },
      { object: 'updated_page', page: intro },
    ]);
    expect(await markdownOf(admin, spaceId, intro)).toBe(`Then [setup](/pages/${setup}).\n`);
  });

  it('are all resolved together, however many a page has, and the rest kept where the new text has them', async () => {
    const { admin, spaceId } = await team();
    const cr = await api.openChangeRequest(admin, spaceId);
    // Hundreds of links to a page to come, between links to another that comes later still.
    const line = (i: number) => `[to come ${i}](soon.md#here) and [never](never.md) ${'😀'.repeat(i % 3)}\n`;
    const markdown = Array.from({ length: 400 }, (_, i) => line(i)).join('\n');
    const first = await write(admin, spaceId, cr, [
      { operation: 'insert_page', ref: 'many.md', title: 'Many', document: { markdown } },
    ]);
    const many = idsOf(first)['many.md']!;
    const second = await write(admin, spaceId, cr, [
      { operation: 'insert_page', ref: 'soon.md', title: 'Soon', document: { markdown: '## Here\n\nNow.\n' } },
    ]);
    const soon = idsOf(second)['soon.md']!;
    const expected = markdown.replace(/\(soon\.md#/g, `(/pages/${soon}#`);
    expect(await markdownOf(admin, spaceId, many, cr)).toBe(expected);
    // The links still missing are kept at their place in the new text: a third write resolves them there.
    const third = await write(admin, spaceId, cr, [
      { operation: 'insert_page', ref: 'never.md', title: 'Never', document: { markdown: 'Late.\n' } },
    ]);
    const never = idsOf(third)['never.md']!;
    expect(await markdownOf(admin, spaceId, many, cr)).toBe(expected.replace(/\(never\.md\)/g, `(/pages/${never})`));
    expect((await report(admin, spaceId, { many, soon, never }, cr)).broken).toBe(0);
  });

  it('re-resolves only the pages that named the new page, whatever the size of the space', async () => {
    const { admin, spaceId } = await team();
    const pages = Array.from({ length: 40 }, (_, index) => ({
      operation: 'insert_page',
      ref: `page-${index}.md`,
      title: `Page ${index}`,
      slug: `page-${index}`,
      document: {
        markdown: index % 20 === 3 ? `Wait for [the news](news.md).\n` : `Page ${index} links [nowhere](other.md).\n`,
      },
    }));
    const { written } = await api.change(admin, spaceId, pages);
    const ids = idsOf(written as Written);

    const cr = await api.openChangeRequest(admin, spaceId);
    const news = await write(admin, spaceId, cr, [
      { operation: 'insert_page', ref: 'news.md', title: 'News', slug: 'news', document: { markdown: 'Fresh.\n' } },
    ]);
    const newsId = idsOf(news)['news.md']!;
    // What is stored: the change request's line holds the new page and the two pages that named it, nothing else.
    const entries = await t.db
      .selectFrom('tree_entries')
      .select(['item_id'])
      .where('space_id', '=', spaceId)
      .where('change_request_id', '=', cr)
      .execute();
    expect(entries.map((entry) => entry.item_id).sort()).toEqual([newsId, ids['page-3.md'], ids['page-23.md']].sort());
    expect(await markdownOf(admin, spaceId, ids['page-23.md']!, cr)).toBe(`Wait for [the news](/pages/${newsId}).\n`);
    expect(await markdownOf(admin, spaceId, ids['page-4.md']!, cr)).toBe('Page 4 links [nowhere](other.md).\n');
  });

  it('never resolves into a page of another space or organization', async () => {
    const ours = await team();
    const theirs = await team();
    const cr = await api.openChangeRequest(ours.admin, ours.spaceId);
    const first = await write(ours.admin, ours.spaceId, cr, [
      { operation: 'insert_page', ref: 'mine.md', title: 'Mine', document: { markdown: 'See [secret](secret.md).\n' } },
    ]);
    const mine = idsOf(first)['mine.md']!;
    // Another organization, and another space of ours, each add a page at that path.
    await api.change(theirs.admin, theirs.spaceId, [
      { operation: 'insert_page', ref: 'secret.md', title: 'Secret', slug: 'secret', document: { markdown: 'X.\n' } },
    ]);
    const sibling = await api.createSpace(ours.admin, ours.organizationId, { title: 'Other' });
    await api.change(ours.admin, sibling.id, [
      { operation: 'insert_page', ref: 'secret.md', title: 'Secret', slug: 'secret', document: { markdown: 'Y.\n' } },
    ]);
    await write(ours.admin, ours.spaceId, cr, [
      { operation: 'insert_page', ref: 'unrelated.md', title: 'Unrelated', document: { markdown: 'Z.\n' } },
    ]);
    expect(await markdownOf(ours.admin, ours.spaceId, mine, cr)).toBe('See [secret](secret.md).\n');
    expect((await report(ours.admin, ours.spaceId, { mine }, cr)).lines).toEqual(['broken secret.md <- mine']);
    const stored = await t.db
      .selectFrom('unresolved_links')
      .select(['space_id', 'target_path', 'url'])
      .where('page_id', '=', mine)
      .execute();
    expect(stored).toEqual([{ space_id: ours.spaceId, target_path: 'secret', url: 'secret.md' }]);
  });
});
