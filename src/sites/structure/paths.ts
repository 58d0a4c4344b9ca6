/**
 * Paths of sections and site spaces in a site's addresses. Made from titles
 * when not given; a path is unique among its siblings, so a taken one gets
 * the first free `-2`, `-3`, … suffix.
 */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    // Runs of anything else become one dash, so at most one dash is left at either end.
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-/, '')
    .slice(0, 90)
    .replace(/-$/, '');
  return slug || fallback;
}

export function uniquePath(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) {
    const candidate = `${wanted.slice(0, 100 - String(n).length - 1)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
