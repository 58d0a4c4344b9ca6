import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../core/schemas.js';

const PLATFORMS = [
  'twitter',
  'instagram',
  'facebook',
  'linkedin',
  'github',
  'discord',
  'slack',
  'youtube',
  'tiktok',
  'reddit',
  'bluesky',
  'mastodon',
  'threads',
  'medium',
] as const;
type Platform = (typeof PLATFORMS)[number];

/**
 * The spec's SiteSocialAccount. A handle is what follows the platform's
 * address (no `@` in front, except between a Mastodon user and their server):
 * letters, digits and `._-`, so that the link made of it points nowhere else.
 */
const SocialAccountSchema = Type.Object(
  {
    platform: StringEnum(PLATFORMS),
    handle: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+(?:@[A-Za-z0-9.-]+)?$' }),
    display: Type.Object({ footer: Type.Boolean(), header: Type.Boolean() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type SocialAccount = Static<typeof SocialAccountSchema>;

export const SocialAccountsSchema = Type.Array(SocialAccountSchema, {
  maxItems: 10,
  description: 'The site’s social accounts; the reader links those shown in the footer',
});

const PROFILE: Record<Exclude<Platform, 'mastodon'>, (handle: string) => string> = {
  twitter: (handle) => `https://x.com/${handle}`,
  instagram: (handle) => `https://www.instagram.com/${handle}`,
  facebook: (handle) => `https://www.facebook.com/${handle}`,
  linkedin: (handle) => `https://www.linkedin.com/company/${handle}`,
  github: (handle) => `https://github.com/${handle}`,
  discord: (handle) => `https://discord.gg/${handle}`,
  slack: (handle) => `https://${handle}.slack.com`,
  youtube: (handle) => `https://www.youtube.com/@${handle}`,
  tiktok: (handle) => `https://www.tiktok.com/@${handle}`,
  reddit: (handle) => `https://www.reddit.com/r/${handle}`,
  bluesky: (handle) => `https://bsky.app/profile/${handle}`,
  threads: (handle) => `https://www.threads.net/@${handle}`,
  medium: (handle) => `https://medium.com/@${handle}`,
};

const PLATFORM_TITLES: Record<Platform, string> = {
  twitter: 'X',
  instagram: 'Instagram',
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
  github: 'GitHub',
  discord: 'Discord',
  slack: 'Slack',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  reddit: 'Reddit',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  threads: 'Threads',
  medium: 'Medium',
};

/** The public address of an account; a Mastodon handle without its server has none. */
export function socialProfileUrl(account: Pick<SocialAccount, 'platform' | 'handle'>): string | undefined {
  if (account.platform !== 'mastodon') return PROFILE[account.platform](account.handle);
  const [user, server] = account.handle.split('@');
  return server ? `https://${server}/@${user}` : undefined;
}

/** The accounts a page footer links: those shown there with an address, titled after their platform. */
export function footerSocialLinks(accounts: readonly SocialAccount[]): Array<{ title: string; href: string }> {
  return accounts.flatMap((account) => {
    const href = account.display.footer ? socialProfileUrl(account) : undefined;
    return href ? [{ title: PLATFORM_TITLES[account.platform], href }] : [];
  });
}
