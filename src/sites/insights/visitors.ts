import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Context } from '../../context.js';

/**
 * Visitors without tracking people: a visitor is known for one day, by a keyed
 * hash of what their requests carry anyway (address and browser), under a salt
 * that lives in site_insight_salts for that day only. Nothing is kept that
 * links a visitor of one day to the next, or leads back to an address.
 */
export interface DailySalt {
  day: string;
  salt: Buffer;
}

const saltsByContext = new WeakMap<Context, Promise<DailySalt>>();

/** The UTC day of `at`, as `YYYY-MM-DD`. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Today's salt, shared by every instance (the first to ask makes it), kept in
 * memory for the day: the visits of a new day's first moments wait on one
 * read. Yesterday's and older are deleted when a new one is read.
 */
export async function todaysSalt(context: Context): Promise<DailySalt> {
  const day = dayOf(context.clock.now());
  const kept = saltsByContext.get(context);
  if (kept && (await kept).day === day) return kept;
  const reading = readSalt(context, day);
  saltsByContext.set(context, reading);
  // A failed read is not kept: the next visit tries again.
  reading.catch(() => {
    if (saltsByContext.get(context) === reading) saltsByContext.delete(context);
  });
  return reading;
}

async function readSalt(context: Context, day: string): Promise<DailySalt> {
  await context.db
    .insertInto('site_insight_salts')
    .values({ day, salt: randomBytes(32) })
    .onConflict((conflict) => conflict.column('day').doNothing())
    .execute();
  await context.db
    .deleteFrom('site_insight_salts')
    .where('day', '<', sql<Date>`${day}::date`)
    .execute();
  const row = await context.db
    .selectFrom('site_insight_salts')
    .select('salt')
    .where('day', '=', sql<Date>`${day}::date`)
    .executeTakeFirstOrThrow();
  return { day, salt: row.salt };
}

/** A day's pseudonym for `parts` within one site: not reversible, not comparable across days or sites. */
export function dailyHash(salt: DailySalt, siteId: string, ...parts: string[]): string {
  const hmac = createHmac('sha256', salt.salt).update(siteId);
  for (const part of parts) hmac.update('\u0000').update(part);
  return hmac.digest('base64url').slice(0, 22);
}

/** A session: the visitor's activity within one half hour, as no cookie carries a session here. */
export function sessionWindow(at: Date): string {
  return String(Math.floor(at.getTime() / 1_800_000));
}

export interface BrowserTraits {
  browser: 'chrome' | 'firefox' | 'safari' | 'edge' | 'ie' | 'opera' | 'unknown';
  os: 'windows' | 'macos' | 'linux' | 'android' | 'ios' | 'unknown';
  device: 'desktop' | 'tablet' | 'mobile' | 'unknown';
  bot: string | null;
}

const BOTS: ReadonlyArray<[RegExp, string]> = [
  [/googlebot/i, 'googlebot'],
  [/bingbot/i, 'bingbot'],
  [/duckduckbot/i, 'duckduckbot'],
  [/duckassistbot/i, 'duckassist'],
  [/facebookexternalhit|facebookbot/i, 'facebookbot'],
  [/applebot/i, 'applebot'],
  [/gptbot/i, 'gptbot'],
  [/chatgpt/i, 'chatgpt'],
  [/oai-searchbot|openai/i, 'openai'],
  [/claudebot/i, 'claudebot'],
  [/claude-code/i, 'claude-code'],
  [/claude-user|claude-web|anthropic/i, 'anthropic'],
  [/perplexity/i, 'perplexity'],
  [/cohere/i, 'cohere'],
  [/mistral/i, 'mistral'],
  [/bytespider/i, 'bytespider'],
  [/ccbot/i, 'ccbot'],
  [/amazonbot/i, 'amazonbot'],
  [/youbot/i, 'youbot'],
  [/meta-externalagent|meta-externalfetcher/i, 'meta-fetcher'],
  [/bot\b|crawler|spider|curl\/|wget\/|python-requests|node-fetch|undici/i, 'unknown'],
];

/** What a user agent says of the browser, system and device, and the bot it names; the agent itself is not kept. */
export function browserTraits(userAgent: string): BrowserTraits {
  // Read from a bounded prefix: the tests below are linear, and real agents are far shorter.
  const agent = userAgent.slice(0, 512);
  const bot = BOTS.find(([pattern]) => pattern.test(agent))?.[1] ?? null;
  const browser = /edg\//i.test(agent)
    ? 'edge'
    : /opr\/|opera/i.test(agent)
      ? 'opera'
      : /firefox\//i.test(agent)
        ? 'firefox'
        : /chrome\/|crios\//i.test(agent)
          ? 'chrome'
          : /safari\//i.test(agent)
            ? 'safari'
            : /msie |trident\//i.test(agent)
              ? 'ie'
              : 'unknown';
  const os = /android/i.test(agent)
    ? 'android'
    : /iphone|ipad|ipod/i.test(agent)
      ? 'ios'
      : /windows/i.test(agent)
        ? 'windows'
        : /mac os x|macintosh/i.test(agent)
          ? 'macos'
          : /linux|x11/i.test(agent)
            ? 'linux'
            : 'unknown';
  const device = /ipad|tablet/i.test(agent)
    ? 'tablet'
    : /mobile|iphone|android/i.test(agent)
      ? 'mobile'
      : os === 'unknown'
        ? 'unknown'
        : 'desktop';
  return { browser, os, device, bot };
}
