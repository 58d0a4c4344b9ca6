import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
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

const read = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const publishedBlocks = () => publishEveryBlockSite(t.app, admin, organizationId);

describe('the published reader, on a page of every GitBook block', () => {
  it('shows each block as GitBook does, its images served from the space’s files', async () => {
    const { pageUrl } = await publishedBlocks();
    const page = await read(pageUrl);
    expect(page.statusCode, page.body).toBe(200);
    const html = page.body;
    // The page's title is its h1, so a document's level-2 heading is an h3; the title's own id may stay a target too.
    expect(html).toMatch(/<h3 id="overview-anchor">(?:<span id="overview"><\/span>)?Overview/);
    expect(html).toMatch(
      /<div class="images images-center"><figure><img src="[^"]+light\.png[^"]*" alt="A diagram" width="1" height="1" loading="lazy" decoding="async" class="image-light">/,
    );
    expect(html).toContain('class="image-dark">');
    expect(html).toContain('<figcaption>The diagram</figcaption>');
    expect(html).toContain('<div class="code-block line-numbers"><div class="code-title">install.sh</div>');
    expect(html).toMatch(
      /<ul class="cards cards-medium"><li class="card"><a class="card-link" href="[^"]+\/guide"><div class="card-cover"><img src="[^"]+light\.png/,
    );
    expect(html).toContain('<div class="card-field">Read the guide</div>');
    expect(html).toContain(
      '<ol class="stepper"><li class="step"><p>First step.</p></li><li class="step"><p>Second step.</p></li></ol>',
    );
    expect(html).toContain(
      '<div class="columns"><div class="column share-50"><p>Left column.</p></div><div class="column share-50"><p>Right column.</p></div></div>',
    );
    expect(html).toContain('<a class="link-card" href="https://www.youtube.com/watch?v=abc">');
    expect(html).toMatch(
      /<div class="content-ref"><a class="link-card" href="[^"]+\/guide"><span class="link-card-title">Guide<\/span><\/a><\/div>/,
    );
    expect(html).toContain('<time class="update-date" datetime="2025-12-25T00:00:00.000Z">December 25, 2025</time>');
    expect(html).toContain('<div class="hint hint-info" role="note" aria-label="Info"><p>A hint.</p></div>');
    expect(html).toContain('<p class="prompt-description">Ask the assistant</p>');
    expect(html).toContain('<div class="math-block" tabindex="0"><span class="katex"><math display="block">');
    expect(html).toContain('<p>Inline <span class="math-inline"><span class="katex"><math>');
    // The included reusable content, its link resolved as the page's own are.
    expect(html).toMatch(/<p>Shared: see <a href="[^"]+\/guide">the guide<\/a>.<\/p>/);
    // Adaptive content: hidden from a visitor whose claims do not open it.
    expect(html).not.toContain('Only for beta testers.');

    // The images are the space's files, at addresses the reader serves.
    const sources = [...html.matchAll(/<img src="([^"]+)"/g)].map((match) => match[1]!.replaceAll('&#x26;', '&'));
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of new Set(sources)) {
      const served = await read(new URL(source).pathname + new URL(source).search);
      expect(served.statusCode, source).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
    }
  });

  it('shows an if block to a visitor whose claims open it', async () => {
    const { site, pageUrl } = await publishedBlocks();
    const first = await read(`/s/${site.id}?visitor.beta=true`);
    expect(first.statusCode).toBe(303);
    const cookie = ([] as string[])
      .concat(first.headers['set-cookie'] ?? [])
      .map((value) => value.split(';')[0])
      .join('; ');
    const page = await read(pageUrl, cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<p>Only for beta testers.</p>');
  });
});
