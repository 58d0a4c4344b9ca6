import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
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

/** The salt being read or read, and the start of the UTC day it is for, in milliseconds. */
interface KeptSalt {
  salt: Promise<DailySalt>;
  /** The salt once read: most visits take it as it is, without waiting on a promise. */
  read?: DailySalt;
  from: number;
}
const saltsByContext = new WeakMap<Context, KeptSalt>();
const DAY_MS = 86_400_000;

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
  const now = context.clock.now().getTime();
  const kept = saltsByContext.get(context);
  if (kept && now >= kept.from && now < kept.from + DAY_MS) return kept.salt;
  const from = now - (now % DAY_MS);
  const reading = readSalt(context, dayOf(new Date(from)));
  const salt: KeptSalt = { salt: reading, from };
  saltsByContext.set(context, salt);
  reading.then(
    (read) => {
      salt.read = read;
    },
    // A failed read is not kept: the next visit tries again.
    () => {
      if (saltsByContext.get(context) === salt) saltsByContext.delete(context);
    },
  );
  return reading;
}

/** Today's salt if it has been read already (see todaysSalt), else undefined. */
export function todaysSaltIfRead(context: Context): DailySalt | undefined {
  const now = context.clock.now().getTime();
  const kept = saltsByContext.get(context);
  return kept && now >= kept.from && now < kept.from + DAY_MS ? kept.read : undefined;
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
  let hashes = hashesBySalt.get(salt);
  if (!hashes) {
    hashes = new LRUCache({ max: HASHES_KEPT, ttl: HASH_KEPT_MS });
    hashesBySalt.set(salt, hashes);
  }
  // What the hash is made of, as it is fed to it.
  const input = [siteId, ...parts].join('\u0000');
  const kept = hashes.get(input);
  if (kept !== undefined) return kept;
  const hash = createHmac('sha256', salt.salt).update(input).digest('base64url').slice(0, 22);
  hashes.set(input, hash);
  return hash;
}

/**
 * Pseudonyms already made under each day's salt, by what they were made of:
 * a visitor's views of a half hour share theirs, and each view made two
 * (visitor and session) anew. Kept in memory for the half hour only.
 */
const hashesBySalt = new WeakMap<DailySalt, LRUCache<string, string>>();
const HASHES_KEPT = 10_000;
const HASH_KEPT_MS = 1_800_000;

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

/** Agents read lately, with what they say: a site's visitors come with a few hundred agents, each read by some twenty patterns. */
const traitsByAgent = new LRUCache<string, BrowserTraits>({ max: 1000 });

/** What a user agent says of the browser, system and device, and the bot it names; the agent itself is not kept. */
export function browserTraits(userAgent: string): BrowserTraits {
  // Read from a bounded prefix: the tests below are linear, and real agents are far shorter.
  const agent = userAgent.slice(0, 512);
  let traits = traitsByAgent.get(agent);
  if (!traits) {
    traits = readTraits(agent);
    traitsByAgent.set(agent, traits);
  }
  return traits;
}

function readTraits(agent: string): BrowserTraits {
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
