import type { SiteCustomizationSettings } from '../customization/schemas.js';

/**
 * A site space's override of its site's customization: a partial settings
 * object. The groups below are merged key by key; any other value (a colour,
 * the favicon, a list of links) is replaced whole, as the spec's override
 * names them.
 */
type Groups = { readonly [key: string]: Groups };
const GROUPS: Groups = {
  styling: { sidebar: {} },
  internationalization: {},
  header: {},
  footer: {},
  themes: {},
  feedback: {},
  externalLinks: {},
  pagination: {},
  trademark: {},
  privacyPolicy: {},
  socialPreview: {},
};

export type Override = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The stored override after a PATCH: a field left out is kept, null removes
 * it, anything else replaces it; a group left empty is dropped, and an
 * override left empty is null (nothing overridden).
 */
export function patchedOverride(stored: Override | null, patch: Override): Override | null {
  const next = patchGroup(stored ?? {}, patch, GROUPS);
  return Object.keys(next).length === 0 ? null : next;
}

function patchGroup(stored: Override, patch: Override, groups: Groups): Override {
  const next: Override = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete next[key];
    } else if (Object.hasOwn(groups, key) && isObject(value)) {
      const inner = patchGroup(isObject(next[key]) ? next[key] : {}, value, groups[key]!);
      if (Object.keys(inner).length === 0) delete next[key];
      else next[key] = inner;
    } else {
      next[key] = value;
    }
  }
  return next;
}

/** The site's settings with a site space's override over them. */
export function withOverride(
  settings: SiteCustomizationSettings,
  override: Override | null,
): SiteCustomizationSettings {
  if (!override) return settings;
  return mergeGroup(settings, override, GROUPS) as unknown as SiteCustomizationSettings;
}

function mergeGroup(base: Override, override: Override, groups: Groups): Override {
  const merged: Override = { ...base };
  for (const [key, value] of Object.entries(override)) {
    merged[key] =
      Object.hasOwn(groups, key) && isObject(value) && isObject(base[key])
        ? mergeGroup(base[key], value, groups[key]!)
        : value;
  }
  return merged;
}
