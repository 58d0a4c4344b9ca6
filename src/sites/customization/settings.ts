import { DEFAULT_CODE_THEME } from './code-themes.js';
import type { PageAction, SiteCustomizationSettings } from './schemas.js';

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
  settings.styling = { codeTheme: DEFAULT_CODE_THEME, ...settings.styling };
  settings.socialAccounts ??= [];
  return { ...settings, ...pageMenu(settings) };
}

/**
 * The page menu in both specs' words, from whichever the admin wrote:
 * 0.202.0's ordered `pageActions.items`, which when given decides, or
 * 0.143.2's switches (`externalAI`, `markdown`, `mcp`) with `pdf` and `git`.
 * On a menu with items, the assistant follows `ai.mode`, as the spec says.
 */
function pageMenu(settings: SiteCustomizationSettings) {
  const { pageActions, ai } = settings;
  const given = pageActions.items;
  let items: PageAction[] =
    given ??
    [
      ai.mode === 'assistant' ? ('assistant' as const) : undefined,
      (pageActions.externalAI ?? true) ? ('external-ai' as const) : undefined,
      (pageActions.markdown ?? true) ? ('markdown' as const) : undefined,
      (pageActions.mcp ?? true) ? ('mcp' as const) : undefined,
      settings.git?.showEditLink ? ('git' as const) : undefined,
      settings.pdf?.enabled ? ('pdf' as const) : undefined,
    ].filter((item) => item !== undefined);
  if (items.length > 0) {
    if (ai.mode !== 'assistant') items = items.filter((item) => item !== 'assistant');
    else if (!items.includes('assistant')) items = ['assistant', ...items];
  }
  return {
    pdf: given ? { enabled: given.includes('pdf') } : (settings.pdf ?? { enabled: false }),
    git: given ? { showEditLink: given.includes('git') } : (settings.git ?? { showEditLink: false }),
    pageActions: {
      externalAI: items.includes('external-ai'),
      markdown: items.includes('markdown'),
      mcp: items.includes('mcp'),
      items,
    },
  };
}
