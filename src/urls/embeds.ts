import { perContext, type Context } from '../context.js';
import { InFlight } from '../core/in-flight.js';
import { OutboundError } from '../core/outbound.js';
import { findSpaceAsMember } from '../access/spaces.js';
import { isOwnHost, ownAddress, parseHttpUrl } from './addresses.js';
import { noContentAtUrl, resolveOwnAddress } from './content.js';
import { findCachedEmbed, keepEmbed } from './embed-cache.js';
import { embedFromOEmbed, knownProviderEndpoint, linkEmbed, readPageHead, type PageHead } from './oembed.js';
import type { Embed } from './schemas.js';

/** The most of a page read to find its head: a larger page is named by its host alone. */
const MAX_PAGE_BYTES = 1024 * 1024;
const MAX_OEMBED_BYTES = 64 * 1024;
/** Each fetch's own limit, within the outbound fetcher's: an embed is a preview, not worth a long wait. */
const FETCH_TIMEOUT_MS = 5_000;
/** How long an embed is kept: the provider's `cache_age` within these bounds, a day when it names none. */
const MIN_KEEP_SECONDS = 3600;
const DEFAULT_KEEP_SECONDS = 24 * 3600;
const MAX_KEEP_SECONDS = 7 * 24 * 3600;

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

/**
 * The embed of an address: for one of ours, the content it shows as the
 * caller may read it (a 404 for what they may not, as for nothing); for any
 * other, its oEmbed answer (a well-known provider's endpoint, or the one its
 * page's head names), else a link with the page's title and icon. Outside
 * addresses are fetched through the guarded fetcher with no credentials, so
 * their embeds are the same for everyone and kept for a while.
 */
export async function embedOfUrl(
  context: Context,
  userId: string,
  rawUrl: string,
  organizationId?: string,
): Promise<Embed> {
  const url = parseHttpUrl(rawUrl, 'url');
  const own = ownAddress(context, url);
  if (own) {
    const { content, siteTitle } = await resolveOwnAddress(context, userId, own);
    if ('collection' in content) return { type: 'link', title: content.collection.title, site: serviceName(context) };
    const title = content.page?.title ?? content.space.title;
    return { type: 'link', title, site: siteTitle ?? content.space.title };
  }
  // The service's own addresses that show no content are not fetched: the service would be asking itself.
  if (isOwnHost(context, url)) throw noContentAtUrl();
  // A fragment is the reader's place in the page, never sent: one page, one embed.
  url.hash = '';
  const address = url.toString();
  const now = context.clock.now();
  const cached = await findCachedEmbed(context.db, address, now);
  if (cached) return cached;
  // Outside addresses are fetched a few at a time per user and organization (none here: the user stands for one).
  const holder = { userId, organizationId: organizationId ?? `user:${userId}` };
  const fetched = await fetchSlots(context).run(holder, () => fetchEmbed(context, url));
  if (fetched.keepSeconds !== undefined) {
    await keepEmbed(context.db, address, fetched.embed, now, new Date(now.getTime() + fetched.keepSeconds * 1000));
  }
  return fetched.embed;
}

/**
 * The embed of an address as a space's editor resolves it: for members with
 * a role on the space only (its visitors, whom visibility lets read it, may
 * not make it fetch), a 404 to anyone else.
 */
export async function embedOfUrlInSpace(
  context: Context,
  userId: string,
  spaceId: string,
  rawUrl: string,
): Promise<Embed> {
  const { space } = await findSpaceAsMember(context, spaceId, userId);
  return embedOfUrl(context, userId, rawUrl, space.organization_id);
}

const FETCHES_AT_ONCE = { perUser: 4, perOrganization: 8, total: 32 };
const fetchSlots = perContext(() => new InFlight(FETCHES_AT_ONCE, 'embeds being fetched'));

function serviceName(context: Context): string {
  return new URL(context.config.publicUrl).host;
}

/**
 * Fetches what an outside address looks like. A refused address (a private
 * one, say) is the caller's 400; an address that fails or times out is a
 * link named by its host, not kept, so that a later request tries again.
 */
async function fetchEmbed(context: Context, url: URL): Promise<{ embed: Embed; keepSeconds?: number }> {
  try {
    const known = knownProviderEndpoint(url);
    if (known) {
      const answered = await oembedAt(context, known, url, {});
      if (answered) return answered;
    }
    const page = await context.outbound.fetch(url.toString(), {
      maxBytes: MAX_PAGE_BYTES,
      accept: HTML_ACCEPT,
      timeoutMs: FETCH_TIMEOUT_MS,
    });
    if (page.status < 200 || page.status >= 300) return { embed: linkEmbed(url, {}) };
    const isHtml = /^(?:text\/html|application\/xhtml\+xml)\b/i.test(page.contentType ?? '');
    // Linear in at most MAX_HEAD_CHARS (see readPageHead): cheap enough on the event loop.
    const head = isHtml ? readPageHead(page.body.toString('utf8'), new URL(page.url)) : {};
    if (head.oembed) {
      const answered = await oembedAt(context, head.oembed, url, head);
      if (answered) return answered;
    }
    return { embed: linkEmbed(url, head), keepSeconds: DEFAULT_KEEP_SECONDS };
  } catch (error) {
    if (error instanceof OutboundError && error.failure !== 'refused') return { embed: linkEmbed(url, {}) };
    throw error;
  }
}

/** A provider's oEmbed answer as an embed, kept as long as it says (within bounds); undefined if it gives none. */
async function oembedAt(
  context: Context,
  endpoint: string,
  url: URL,
  head: PageHead,
): Promise<{ embed: Embed; keepSeconds: number } | undefined> {
  const answer = await context.outbound.fetch(endpoint, {
    maxBytes: MAX_OEMBED_BYTES,
    accept: 'application/json',
    timeoutMs: FETCH_TIMEOUT_MS,
  });
  if (answer.status < 200 || answer.status >= 300) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
  const made = embedFromOEmbed(json, url, head);
  if (!made) return undefined;
  const keepSeconds = Math.min(Math.max(made.cacheAge ?? DEFAULT_KEEP_SECONDS, MIN_KEEP_SECONDS), MAX_KEEP_SECONDS);
  return { embed: made.embed, keepSeconds };
}
