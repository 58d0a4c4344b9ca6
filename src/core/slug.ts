const MAX_SLUG_LENGTH = 100;

/**
 * A URL path segment made from a title: lowercase letters, digits and dashes
 * (pages' slugs, sites' section and site-space paths); `fallback` when none is left.
 */
export function slugify(title: string, fallback = 'page'): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|(?<!-)-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/(?<!-)-+$/, '');
  return slug || fallback;
}

/** `base`, or `base-2`, `base-3` ... : the first that none of `taken` uses. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
