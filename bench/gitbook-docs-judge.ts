import type { PageSource } from './gitbook-docs-source.js';
import { collapsed, comparableBody, srcsetUrl } from './gitbook-docs-source.js';
import { articleOf, type HtmlElement, type ReadBack, type ReadPage } from './gitbook-docs-read.js';

/**
 * Decides, page by page, what the published page and the read-back lose of
 * what its markdown says, by kind. Each kind counts occurrences and keeps a
 * few examples of them.
 */

export const KINDS = {
  tags: '(a) literal {% %} tag text in the page',
  htmlAsCode: '(b) HTML source shown as code or text',
  images: '(c) images not shown',
  darkImages: '(c) dark-mode variants not given',
  pageLinks: '(d) relative page links not resolved',
  deadHrefs: '(d) links in the page that 404 or end in .md',
  anchors: '(e) anchors with no such id on the target',
  page: '(f) page refused or missing, frontmatter lost',
  markdown: '(g) markdown read back not as written',
  text: '(h) source prose not shown in the page',
} as const;
export type Kind = keyof typeof KINDS;

export interface Finding {
  count: number;
  examples: string[];
}

export interface PageFindings {
  gitPath: string;
  title: string;
  url?: string;
  kinds: Partial<Record<Kind, Finding>>;
  /** Links the source itself gets wrong (a `.md` that is no page of the tree): not counted as losses. */
  brokenInSource: number;
  /** Broken links the service's links report lists for this page, against this reading's (d)+(e). */
  linksReport: { reported: number; found: number };
  /** What the source gives to check, for kinds counted against a total: images, page links, anchored links, prose runs. */
  checked: Partial<Record<Kind, number>>;
}

const EXAMPLES = 5;

function add(findings: PageFindings, kind: Kind, example: string, count = 1): void {
  const finding = (findings.kinds[kind] ??= { count: 0, examples: [] });
  finding.count += count;
  if (finding.examples.length < EXAMPLES) finding.examples.push(example.slice(0, 200));
}

export interface JudgeInput {
  sources: Map<string, PageSource>;
  /** Page id of each written page, by git path; why each refused one was refused. */
  ids: Map<string, string>;
  refused: Map<string, string>;
  read: ReadBack;
  /** The status a service address answers, asked once per address. */
  check: (address: string) => Promise<number>;
}

/** A page address as links are compared: decoded path, no trailing slash, the first page's two addresses as one. */
function addressKey(url: URL, aliases: Map<string, string>): string {
  let key: string;
  try {
    key = decodeURIComponent(url.pathname);
  } catch {
    key = url.pathname;
  }
  key = key.replace(/\/$/, '');
  return aliases.get(key) ?? key;
}

/** Link and image destinations masked: a read-back writes them as `/pages/<id>` and `/files/<id>`. */
function masked(markdown: string): string {
  return markdown
    .replace(/\]\((?:<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+"[^"\n]*")?\)/g, '](URL)')
    .replace(/\b(src|href|srcset|url)="[^"]*"/g, '$1="URL"')
    .replace(/^( {0,3}\[[^\]\n]+\]:\s*)\S+/gm, '$1URL');
}

function compareMarkdown(findings: PageFindings, written: string, readBack: string): void {
  const expected = masked(written);
  const actual = masked(comparableBody(readBack));
  if (expected === actual) return;
  const left = new Map<string, number>();
  for (const line of actual.split('\n')) left.set(line, (left.get(line) ?? 0) + 1);
  const lost: string[] = [];
  for (const line of expected.split('\n')) {
    if (line.trim() === '') continue;
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    else lost.push(line);
  }
  if (lost.length === 0) {
    const [wrote, got] = [expected.split('\n'), actual.split('\n')];
    const at = wrote.findIndex((line, index) => line !== got[index]);
    return add(
      findings,
      'markdown',
      `same lines, other blank lines or order: line ${at + 1} wrote ${JSON.stringify(wrote[at] ?? '')}, read ${JSON.stringify(got[at] ?? '')}`,
    );
  }
  for (const line of lost) add(findings, 'markdown', `missing line: ${line}`);
}

function checkFrontmatter(
  findings: PageFindings,
  frontmatter: Record<string, unknown>,
  fields: Record<string, unknown>,
) {
  const same = (key: string, expected: unknown, actual: unknown) => {
    if (expected !== actual)
      add(findings, 'page', `frontmatter ${key}: wrote ${JSON.stringify(expected)}, read ${JSON.stringify(actual)}`);
  };
  if (typeof frontmatter.description === 'string' && frontmatter.description.trim() !== '')
    same(
      'description',
      frontmatter.description.trim(),
      typeof fields.description === 'string' ? fields.description.trim() : fields.description,
    );
  if (typeof frontmatter.icon === 'string') same('icon', frontmatter.icon, fields.icon);
  if (frontmatter.hidden === true) same('hidden', true, fields.hidden);
  if (frontmatter.cover !== undefined && frontmatter.cover !== null && !fields.cover)
    add(findings, 'page', 'frontmatter cover: no cover on the page');
  const layout = frontmatter.layout;
  if (layout === undefined || layout === null) return;
  const read = fields.layout as Record<string, unknown> | undefined;
  if (!read) return add(findings, 'page', 'frontmatter layout: no layout on the page');
  if (typeof layout !== 'object') return;
  for (const [key, value] of Object.entries(layout as Record<string, unknown>)) {
    if (key === 'width') same('layout.width', value, read.width);
    const visible = (value as { visible?: unknown } | null)?.visible;
    if (typeof visible === 'boolean') same(`layout.${key}.visible`, visible, read[key]);
  }
}

/**
 * The text of the article outside code, where a tag or HTML source shown as
 * text would be; and outside the description, the frontmatter's plain text,
 * which GitBook shows as written too.
 */
function proseText(article: HtmlElement): string {
  const copy = article.cloneNode(true);
  for (const code of [...copy.querySelectorAll('pre, code, .page-description')]) code.remove();
  return copy.textContent ?? '';
}

const HTML_AS_TEXT =
  /<\/?(figure|figcaption|table|thead|tbody|tr|td|th|div|img|picture|source|pre|p|h[1-6]|mark|br|a|i|span)\b[^<>]*>/gi;

/** An address as the browser reads it, or undefined for one it cannot read. */
function parsedUrl(raw: string, base: URL): URL | undefined {
  try {
    return new URL(raw, base);
  } catch {
    return undefined;
  }
}

function fileName(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export async function judgePages(input: JudgeInput): Promise<PageFindings[]> {
  const { sources, ids, refused, read, check } = input;
  const byId = read.pages;
  const pageOf = (gitPath: string): ReadPage | undefined => {
    const id = ids.get(gitPath);
    return id ? byId.get(id) : undefined;
  };
  // A page read at another address than its canonical one (the site's root for the first page) is the same page.
  const aliases = new Map<string, string>();
  for (const [alias, canonical] of read.aliases) {
    aliases.set(addressKey(new URL(alias), new Map()), addressKey(new URL(canonical), new Map()));
  }
  const idsOf = new Map<string, Set<string>>();
  const idsOfPage = (page: ReadPage) => {
    let found = idsOf.get(page.id);
    if (!found) {
      const { document } = articleOf(page.html ?? '');
      found = new Set([...document.querySelectorAll('[id]')].map((element) => element.getAttribute('id') ?? ''));
      idsOf.set(page.id, found);
    }
    return found;
  };

  const results: PageFindings[] = [];
  for (const [gitPath, source] of sources) {
    const page = pageOf(gitPath);
    const findings: PageFindings = {
      gitPath,
      title: page?.title ?? gitPath,
      ...(page?.url ? { url: page.url } : {}),
      kinds: {},
      brokenInSource:
        source.links.filter((link) => link.brokenInSource).length +
        [...source.keptAsWritten].filter((url) => url.startsWith('/broken/')).length,
      checked: {
        images: source.images.filter((image) => !image.dark).length,
        darkImages: source.images.filter((image) => image.dark).length,
        pageLinks: source.links.filter((link) => !link.url.startsWith('#') && !link.brokenInSource).length,
        anchors: source.links.filter((link) => link.anchor && !link.brokenInSource).length,
        text: source.texts.length,
      },
      linksReport: { reported: page ? (read.reportedBroken.get(page.id) ?? 0) : 0, found: 0 },
    };
    results.push(findings);
    if (!page) {
      add(
        findings,
        'page',
        refused.has(gitPath) ? `refused: ${refused.get(gitPath)}` : 'not in the space after the merge',
      );
      continue;
    }
    checkFrontmatter(findings, source.frontmatter, page.fields);
    if (page.markdown === undefined) add(findings, 'markdown', 'no markdown read back');
    else compareMarkdown(findings, source.body, page.markdown);
    if (!page.html || page.status !== 200 || !page.url) {
      add(findings, 'page', `the published page answered ${page.status ?? 'nothing'}`);
      continue;
    }
    const pageUrl = new URL(page.url);
    const { article } = articleOf(page.html);
    const prose = proseText(article);

    const shownText = collapsed(article.textContent ?? '');
    for (const text of source.texts) if (!shownText.includes(text)) add(findings, 'text', text);

    const tags = prose.match(/\{%[^\n]{0,60}/g) ?? [];
    for (const tag of tags) add(findings, 'tags', tag);

    // A code block that starts with `<` and is none of the source's own code blocks is an HTML block shown as code.
    const ownCode = new Map<string, number>();
    for (const code of source.codeStartingWithTag) ownCode.set(code, (ownCode.get(code) ?? 0) + 1);
    for (const pre of source.htmlBlocks > 0 ? article.querySelectorAll('pre') : []) {
      const code = collapsed(pre.textContent ?? '');
      if (!code.startsWith('<')) continue;
      const left = ownCode.get(code) ?? 0;
      if (left > 0) ownCode.set(code, left - 1);
      else add(findings, 'htmlAsCode', `code: ${code.slice(0, 100)}`);
    }
    for (const match of prose.match(HTML_AS_TEXT) ?? []) add(findings, 'htmlAsCode', `text: ${match}`);

    // Images: each source image against an <img> (or dark <source>) that loads, matched by file name or URL.
    const shown = new Map<string, number>();
    for (const element of article.querySelectorAll('img[src], source[srcset]')) {
      const raw = element.getAttribute('src') ?? srcsetUrl(element.getAttribute('srcset') ?? '');
      const url = parsedUrl(raw, pageUrl);
      const status = url ? await check(url.href) : 0;
      if (!url || status < 200 || status > 299) continue;
      for (const key of new Set([fileName(url), raw, url.href])) shown.set(key, (shown.get(key) ?? 0) + 1);
    }
    for (const image of source.images) {
      const left = shown.get(image.match) ?? 0;
      if (left > 0) shown.set(image.match, left - 1);
      else add(findings, image.dark ? 'darkImages' : 'images', image.src);
    }

    // Page links: each relative link of the source against an <a> in the article that leads to its target.
    const hrefs = [...article.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? '');
    const anchors = hrefs.flatMap((href) => parsedUrl(href, pageUrl) ?? []);
    const leadsTo = new Map<string, number>();
    for (const url of anchors) {
      const key = addressKey(url, aliases);
      leadsTo.set(key, (leadsTo.get(key) ?? 0) + 1);
    }
    for (const link of source.links) {
      if (link.url.startsWith('#') || link.brokenInSource) continue;
      const target = pageOf(link.target!);
      if (!target?.url) {
        add(findings, 'pageLinks', `${link.url} (its page was not written)`);
        continue;
      }
      const key = addressKey(new URL(target.url), aliases);
      const left = leadsTo.get(key) ?? 0;
      if (left > 0) leadsTo.set(key, left - 1);
      else add(findings, 'pageLinks', link.url);
    }
    for (const href of hrefs) {
      const url = parsedUrl(href, pageUrl);
      // A link the source writes from the site's root is the source's own; the service keeps it as written.
      if (!url || url.origin !== pageUrl.origin || source.keptAsWritten.has(href)) continue;
      const unresolvedMd = /\.md$/i.test(url.pathname) && !url.pathname.startsWith('/files/');
      const status = unresolvedMd ? 404 : await check(`${url.origin}${url.pathname}${url.search}`);
      if (status < 200 || status > 299) add(findings, 'deadHrefs', `${url.pathname} answered ${status}`);
    }

    // Anchors: each #fragment against the ids of its target page. A link broken in the source is broken here
    // too (not a loss, so not a finding), and the links report should say so.
    let brokenAsInSource = 0;
    for (const link of source.links) {
      const target = link.target === undefined ? undefined : pageOf(link.target);
      const missing = link.anchor !== '' && target?.html !== undefined && !idsOfPage(target).has(link.anchor);
      if (link.brokenInSource) {
        if (!target || missing) brokenAsInSource++;
      } else if (missing) add(findings, 'anchors', link.url);
    }
    // GitBook's own `/broken/pages/…` and `/broken/files/…` links are kept as written: broken here too.
    brokenAsInSource += [...source.keptAsWritten].filter((url) => url.startsWith('/broken/')).length;
    findings.linksReport.found =
      brokenAsInSource +
      (findings.kinds.pageLinks?.count ?? 0) +
      (findings.kinds.anchors?.count ?? 0) +
      (findings.kinds.deadHrefs?.count ?? 0);
  }
  return results;
}
