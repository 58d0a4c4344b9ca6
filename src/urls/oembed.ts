import type { Embed } from './schemas.js';

/**
 * Well-known providers that answer oEmbed at a fixed endpoint, by the hosts
 * of their content: these need no discovery in the page.
 */
const PROVIDERS: ReadonlyArray<{ hosts: readonly string[]; endpoint: string }> = [
  {
    hosts: ['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be'],
    endpoint: 'https://www.youtube.com/oembed',
  },
  { hosts: ['vimeo.com', 'www.vimeo.com', 'player.vimeo.com'], endpoint: 'https://vimeo.com/api/oembed.json' },
  { hosts: ['twitter.com', 'www.twitter.com', 'x.com', 'www.x.com'], endpoint: 'https://publish.twitter.com/oembed' },
  { hosts: ['soundcloud.com', 'www.soundcloud.com'], endpoint: 'https://soundcloud.com/oembed' },
  { hosts: ['open.spotify.com'], endpoint: 'https://open.spotify.com/oembed' },
  { hosts: ['codepen.io'], endpoint: 'https://codepen.io/api/oembed' },
  { hosts: ['www.figma.com', 'figma.com'], endpoint: 'https://www.figma.com/api/oembed' },
  { hosts: ['www.loom.com', 'loom.com'], endpoint: 'https://www.loom.com/v1/oembed' },
];

/** The oEmbed address of a well-known provider's content, or undefined for any other host. */
export function knownProviderEndpoint(url: URL): string | undefined {
  const host = url.hostname.toLowerCase();
  const provider = PROVIDERS.find((candidate) => candidate.hosts.includes(host));
  return provider && withUrl(provider.endpoint, url.href);
}

function withUrl(endpoint: string, url: string): string {
  const address = new URL(endpoint);
  address.searchParams.set('url', url);
  address.searchParams.set('format', 'json');
  return address.toString();
}

/** The most of a page's start that is read for its head: discovery never reads further. */
export const MAX_HEAD_CHARS = 256 * 1024;
const MAX_TAG_CHARS = 2048;

/** What a page's head says about it: its oEmbed address, title, site name and icon. */
export interface PageHead {
  oembed?: string;
  title?: string;
  siteName?: string;
  icon?: string;
}

/**
 * Reads a page's head for `<link rel="alternate" type="application/json+oembed">`,
 * its title (`og:title`, else `<title>`), site name and icon. Linear in the
 * head, which is cut at `</head>` and at MAX_HEAD_CHARS first: each tag is
 * matched from its `<` to the next `<` or `>`, at most MAX_TAG_CHARS, so no
 * input makes it backtrack.
 */
export function readPageHead(html: string, pageUrl: URL): PageHead {
  let head = html.length > MAX_HEAD_CHARS ? html.slice(0, MAX_HEAD_CHARS) : html;
  const end = head.search(/<\/head\s*>/i);
  if (end >= 0) head = head.slice(0, end);
  const found: PageHead = {};
  let documentTitle: string | undefined;
  const tags = new RegExp(`<(link|meta|title)\\b([^<>]{0,${MAX_TAG_CHARS}})>`, 'gi');
  for (const match of head.matchAll(tags)) {
    const name = match[1]!.toLowerCase();
    if (name === 'title') {
      const start = match.index + match[0].length;
      const close = head.indexOf('</', start);
      if (close > start && documentTitle === undefined) documentTitle = decodeEntities(head.slice(start, close)).trim();
      continue;
    }
    const attributes = attributesOf(match[2]!);
    if (name === 'link') {
      const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
      const href = attributes.href && absoluteHttpUrl(attributes.href, pageUrl);
      if (!href) continue;
      if (rel.includes('alternate') && attributes.type?.toLowerCase() === 'application/json+oembed')
        found.oembed ??= href;
      else if (rel.includes('icon')) found.icon ??= href;
    } else {
      const property = (attributes.property ?? attributes.name ?? '').toLowerCase();
      const content = attributes.content?.trim();
      if (!content) continue;
      if (property === 'og:title') found.title ??= content;
      else if (property === 'og:site_name') found.siteName ??= content;
    }
  }
  if (found.title === undefined && documentTitle) found.title = documentTitle;
  return found;
}

/**
 * A tag's attributes by lower-case name, values decoded; the first of a
 * repeated name wins. A name starts only after a space, so a run of name
 * characters (or of quoted values) is never tried again from inside, which
 * would be quadratic.
 */
function attributesOf(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of text.matchAll(/(?<=^|\s)([A-Za-z_:][-\w:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g)) {
    const name = match[1]!.toLowerCase();
    attributes[name] ??= decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, entity: string) => {
    if (entity.startsWith('#')) {
      const code =
        entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

/** An http(s) address, made absolute against the page's; undefined for any other scheme. */
export function absoluteHttpUrl(href: string, base: URL): string | undefined {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** The longest HTML of a provider kept: a player's snippet is a few hundred bytes. */
const MAX_EMBED_HTML = 16 * 1024;
const MAX_TEXT = 512;

/** An oEmbed answer as the spec's Embed, with the page's own head as a fallback for its names; or undefined. */
export function embedFromOEmbed(
  json: unknown,
  url: URL,
  head: PageHead,
): { embed: Embed; cacheAge?: number } | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const answer = json as Record<string, unknown>;
  const text = (value: unknown) =>
    typeof value === 'string' && value.trim() !== '' ? value.slice(0, MAX_TEXT) : undefined;
  const title = text(answer.title) ?? head.title ?? url.hostname;
  const site = text(answer.provider_name) ?? head.siteName ?? url.hostname;
  const icon = head.icon ? { icon: head.icon } : {};
  const cacheAge = typeof answer.cache_age === 'number' ? answer.cache_age : Number(answer.cache_age) || undefined;
  const base = { title, site, ...icon, ...(cacheAge ? { cacheAge } : {}) };
  const html = typeof answer.html === 'string' && answer.html.length <= MAX_EMBED_HTML ? answer.html : undefined;
  if ((answer.type === 'video' || answer.type === 'rich') && html) return only(base, { type: 'rich', html });
  if (answer.type === 'photo' && typeof answer.url === 'string') {
    const src = absoluteHttpUrl(answer.url, url);
    if (src)
      return only(base, { type: 'rich', html: `<img src="${escapeAttribute(src)}" alt="${escapeAttribute(title)}">` });
  }
  if (typeof answer.type !== 'string') return undefined;
  return only(base, { type: 'link' });
}

function only(
  base: { title: string; site: string; icon?: string; cacheAge?: number },
  kind: { type: 'link' } | { type: 'rich'; html: string },
): { embed: Embed; cacheAge?: number } {
  const { cacheAge, ...names } = base;
  return { embed: { ...names, ...kind }, ...(cacheAge ? { cacheAge } : {}) };
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page with no oEmbed: a link with its title, site name and icon where its head has them. */
export function linkEmbed(url: URL, head: PageHead): Embed {
  return {
    type: 'link',
    title: head.title?.slice(0, MAX_TEXT) ?? url.hostname,
    site: head.siteName?.slice(0, MAX_TEXT) ?? url.hostname,
    ...(head.icon ? { icon: head.icon } : {}),
  };
}
