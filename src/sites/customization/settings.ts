import type { SiteCustomizationSettings } from './schemas.js';

const themed = (color: string) => ({ light: color, dark: color });

/** What a site looks like before an admin changes anything. */
function defaultSettings(): SiteCustomizationSettings {
  return {
    styling: {
      theme: 'clean',
      primaryColor: themed('#346DDB'),
      infoColor: themed('#787878'),
      successColor: themed('#00C950'),
      warningColor: themed('#FE9A00'),
      dangerColor: themed('#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: false },
    feedback: { enabled: false },
    ai: { mode: 'search' },
    advancedCustomization: { enabled: false },
    git: { showEditLink: false },
    pageActions: { externalAI: true, markdown: true, mcp: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
  };
}

/** The spec's SiteTitle bounds, in code points as JSON Schema counts them. */
function fitsSiteTitle(title: string): boolean {
  const length = [...title].length;
  return length >= 2 && length <= 128;
}

/**
 * A site's customization settings: what an admin stored, or every default
 * when nothing was. The stored settings were complete when written; the
 * defaults under them fill a section a later version adds. Without a title of
 * its own, the settings carry the site's.
 */
export function siteCustomization(
  stored: Record<string, unknown> | null,
  site: { title: string },
): SiteCustomizationSettings {
  const settings: SiteCustomizationSettings = { ...defaultSettings(), ...(stored ?? {}) };
  if (settings.title === undefined && fitsSiteTitle(site.title)) settings.title = site.title;
  return settings;
}
