import { createHash } from 'node:crypto';
import type { SiteCustomizationSettings } from '../customization/schemas.js';

/**
 * A site's colours as custom properties over the reader's stylesheet. Every
 * colour passed the settings' `#rgb`/`#rrggbb` pattern when it was stored, and
 * is checked again here, so nothing else can reach the stylesheet.
 */
export function siteCss(settings: SiteCustomizationSettings): { css: string; etag: string } {
  let made = madeFor.get(settings);
  if (!made) {
    made = makeSiteCss(settings);
    madeFor.set(settings, made);
  }
  return made;
}

/** Each settings object's stylesheet, made once: the settings of a cached site are the same object visit after visit. */
const madeFor = new WeakMap<SiteCustomizationSettings, { css: string; etag: string }>();

function makeSiteCss(settings: SiteCustomizationSettings): { css: string; etag: string } {
  const { styling, header } = settings;
  const color = (value: string | undefined) => (value && /^#[0-9a-fA-F]{3,6}$/.test(value) ? value : undefined);
  const light: string[] = [];
  const dark: string[] = [];
  const both = (name: string, themed: { light: string; dark: string } | undefined) => {
    const lightValue = readable(color(themed?.light), LIGHT_SURFACES);
    const darkValue = readable(color(themed?.dark), DARK_SURFACES);
    if (lightValue) light.push(`--${name}: ${lightValue};`);
    if (darkValue) dark.push(`--${name}: ${darkValue};`);
  };
  both('primary', styling.primaryColor);
  both('info', styling.infoColor);
  both('success', styling.successColor);
  both('warning', styling.warningColor);
  both('danger', styling.dangerColor);
  both('header-bg', header.backgroundColor);
  both('header-link', header.linkColor);
  const primaryDark = readable(color(styling.primaryColor.dark), DARK_SURFACES);
  const css = [
    `:root { ${light.join(' ')}${primaryDark ? ` --primary-dark: ${primaryDark};` : ''} }`,
    `:root[data-theme="dark"] { ${dark.join(' ')} }`,
    `@media (prefers-color-scheme: dark) { :root[data-theme="auto"] { ${dark.join(' ')} } }`,
    header.backgroundColor ? '.site-header { background: var(--header-bg); }' : '',
    header.linkColor ? '.header-links a, .site-title { color: var(--header-link); }' : '',
  ]
    .filter(Boolean)
    .join('\n');
  return { css, etag: `"${createHash('sha256').update(css).digest('base64url').slice(0, 22)}"` };
}

/** The backgrounds text sits on in each theme (page, and the surface of current links and code). */
const LIGHT_SURFACES = ['#ffffff', '#f6f8fa'];
const DARK_SURFACES = ['#0d1117', '#151b23'];
/** WCAG's minimum contrast for body text. */
const MIN_CONTRAST = 4.5;

/**
 * The colour, moved toward black on light backgrounds or white on dark ones
 * just far enough to read at WCAG AA: a brand colour chosen for one theme
 * (GitBook's default blue is the same in both) stays legible in the other.
 */
function readable(hex: string | undefined, surfaces: string[]): string | undefined {
  if (!hex) return undefined;
  const toward = luminance(surfaces[0]!) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  const original = rgb(hex);
  for (let step = 0; step <= 20; step++) {
    const mixed = original.map((channel, i) => Math.round(channel + ((toward[i]! - channel) * step) / 20));
    const candidate = `#${mixed.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
    if (surfaces.every((surface) => contrast(candidate, surface) >= MIN_CONTRAST)) return step === 0 ? hex : candidate;
  }
  return hex;
}

function rgb(hex: string): number[] {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}
