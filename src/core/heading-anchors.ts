import GithubSlugger from 'github-slugger';

/**
 * An id a heading may be given by its author: the characters of GitBook's
 * `DocumentBlockHeading.data.id` (its spec's pattern), within a bound.
 */
export const HEADING_ID = /^[-a-z0-9.+_]{1,255}$/;

/** A heading's title with nothing to make an id of gets this one, as the reader always gave it. */
const EMPTY_TITLE_ID = 'section';

/**
 * The id GitBook gives a heading that has none of its own, as its published
 * links show it: the title lowercased, accents dropped, `&` read as "and",
 * every run of other characters than letters, digits, `.`, `+` and `_` one
 * dash (so "1. Create an app" is `1.-create-an-app`), and `id-` before an id
 * that would start with a digit (`id-1.-create-an-app`), as HTML ids once had
 * to. Letters of other scripts are kept: GitBook's own docs, in English, show
 * no rule for them.
 */
export function headingAnchor(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC')
    .toLowerCase()
    .replaceAll('&', ' and ')
    .replace(/[^\p{L}\p{N}.+_]+/gu, '-');
  // Runs are single dashes now: trimming one at each end is enough.
  const start = words.startsWith('-') ? 1 : 0;
  const end = words.length > start && words.endsWith('-') ? words.length - 1 : words.length;
  const slug = words.slice(start, end);
  if (slug === '') return '';
  return /^\p{N}/u.test(slug) ? `id-${slug}` : slug;
}

/** A heading's id, and the id this service gave it before it followed GitBook's rule. */
export interface HeadingIdentity {
  id: string;
  /** github-slugger's id of the title, as the reader and the link checker made them before. */
  legacyId: string;
}

/**
 * The ids of one page's headings, in document order. An id the author gave
 * is kept as written, even where another heading has it too (GitBook keeps
 * them so); a computed one that is taken gets `-1`, `-2`… as github-slugger's did.
 */
export class HeadingIds {
  private readonly taken = new Set<string>();
  private readonly repeats = new Map<string, number>();
  private readonly legacy = new GithubSlugger();

  next(title: string, explicitId?: string): HeadingIdentity {
    const legacyId = this.legacy.slug(title || EMPTY_TITLE_ID);
    if (explicitId !== undefined) {
      this.taken.add(explicitId);
      return { id: explicitId, legacyId };
    }
    const base = headingAnchor(title) || EMPTY_TITLE_ID;
    let id = base;
    let repeat = this.repeats.get(base) ?? 0;
    while (this.taken.has(id)) {
      repeat += 1;
      id = `${base}-${repeat}`;
    }
    this.repeats.set(base, repeat);
    this.taken.add(id);
    return { id, legacyId };
  }
}
