import { BadRequestError } from '../core/errors.js';

/**
 * A page's layout and cover as GitBook's Git Sync writes them in frontmatter,
 * read into the spec's shapes (RevisionPageLayoutOptions, RevisionPageDocumentCover)
 * and written back in Git Sync's form.
 */

/** RevisionPageLayoutOptions with every option as GitBook defaults it; stored options override these. */
export const DEFAULT_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
} as const;

/** Options Git Sync writes as `<name>: { visible: <flag> }`, in its order. */
const VISIBILITY_OPTIONS = [
  'title',
  'description',
  'tableOfContents',
  'outline',
  'pagination',
  'metadata',
  'tags',
  'actions',
  'anchors',
] as const;

const CHOICES = {
  width: ['default', 'wide'],
  coverSize: ['hero', 'full', 'background'],
  coverMask: ['none', 'radial'],
} as const;

/**
 * RevisionPageLayoutPreset, the string older pages write (`layout: landing`),
 * as the options it stands for: a landing page is wide and without the
 * navigation around it, an editorial one without the table of contents and outline.
 */
const PRESETS: Record<string, Record<string, unknown>> = {
  docs: {},
  editorial: { tableOfContents: false, outline: false },
  landing: { width: 'wide', tableOfContents: false, outline: false, pagination: false },
};

/** The spec's bounds of a cover's height, in pixels. */
const COVER_HEIGHT = { min: 10, max: 700 };

function refuse(field: string, rule: string): never {
  throw new BadRequestError(`${field} ${rule}`);
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function choice<K extends keyof typeof CHOICES>(value: unknown, key: K, field: string): string {
  const allowed: readonly string[] = CHOICES[key];
  if (typeof value !== 'string' || !allowed.includes(value)) refuse(field, `must be one of ${allowed.join(', ')}`);
  return value;
}

/** `true`, `false`, or Git Sync's `{ visible: true }`. */
function visibility(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (isMapping(value) && typeof value.visible === 'boolean') return value.visible;
  return refuse(field, 'must be true, false or a mapping with visible: true or false');
}

/** Git Sync's `cover: { visible, size, mask }` inside a layout, or the flag alone. */
function coverOptions(value: unknown, field: string): Record<string, unknown> {
  if (typeof value === 'boolean') return { cover: value };
  if (!isMapping(value)) return refuse(field, 'must be true, false or a mapping of visible, size and mask');
  const options: Record<string, unknown> = {};
  if (value.visible !== undefined) options.cover = visibility(value, field);
  if (value.size !== undefined) options.coverSize = choice(value.size, 'coverSize', `${field}.size`);
  if (value.mask !== undefined) options.coverMask = choice(value.mask, 'coverMask', `${field}.mask`);
  return options;
}

/**
 * A frontmatter `layout` as the spec's layout options: a preset's name, or a
 * mapping of Git Sync's `{ visible }` options or the spec's flags. Options
 * GitBook does not have are left out, as other unknown keys are.
 */
export function readLayout(value: unknown, field: string): Record<string, unknown> {
  if (typeof value === 'string') {
    const preset = PRESETS[value];
    if (!preset) refuse(field, `must be a mapping of layout options or one of ${Object.keys(PRESETS).join(', ')}`);
    return { ...preset };
  }
  if (!isMapping(value)) refuse(field, 'must be a mapping of layout options or a preset name');
  const layout: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(value)) {
    const name = `${field}.${key}`;
    if ((VISIBILITY_OPTIONS as readonly string[]).includes(key)) layout[key] = visibility(option, name);
    else if (key === 'cover') Object.assign(layout, coverOptions(option, name));
    else if (key === 'width' || key === 'coverSize' || key === 'coverMask') layout[key] = choice(option, key, name);
  }
  return layout;
}

/** What a frontmatter says of the cover: its image, and where it sits. */
export interface CoverInput {
  /** The image as written (a URL, or a path or name of a space file); null removes the cover. */
  image?: string | null;
  /** Layout options a `cover: { visible, size, mask }` mapping sets. */
  layout?: Record<string, unknown>;
  yPos?: number;
  height?: number;
}

function finiteNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) refuse(field, 'must be a number');
  return value;
}

/** `cover`, `coverY` and `coverHeight` of a frontmatter, each checked; undefined where none is there. */
export function readCover(data: Record<string, unknown>, field: (key: string) => string): CoverInput | undefined {
  const input: CoverInput = {};
  if (Object.hasOwn(data, 'cover')) {
    const cover = data.cover;
    if (cover === null || cover === '') input.image = null;
    else if (typeof cover === 'string') input.image = cover.slice(0, 2048);
    else if (isMapping(cover)) input.layout = coverOptions(cover, field('cover'));
    else refuse(field('cover'), 'must be the path or URL of an image, or a mapping of visible, size and mask');
  }
  if (data.coverY !== undefined) input.yPos = finiteNumber(data.coverY, field('coverY'));
  if (data.coverHeight !== undefined) {
    const height = finiteNumber(data.coverHeight, field('coverHeight'));
    if (height < COVER_HEIGHT.min || height > COVER_HEIGHT.max)
      refuse(field('coverHeight'), `must be between ${COVER_HEIGHT.min} and ${COVER_HEIGHT.max}`);
    input.height = height;
  }
  return Object.keys(input).length === 0 ? undefined : input;
}

/**
 * The spec's RevisionPageDocumentCover for a cover image as written: its
 * image a URL reference until the batch's end resolves it to a space file.
 */
export function coverOf(input: CoverInput, previous: Record<string, unknown> | null): Record<string, unknown> | null {
  if (input.image === null) return null;
  // A new image starts at the top; coverY and coverHeight alone move the image the page has.
  const base: Record<string, unknown> | null =
    input.image !== undefined ? { ref: { kind: 'url', url: input.image } } : previous;
  if (!base) return null;
  const height = input.height ?? base.height;
  return {
    ...base,
    yPos: input.yPos ?? (typeof base.yPos === 'number' ? base.yPos : 0),
    ...(typeof height === 'number' ? { height } : {}),
  };
}

/** A page's layout options in Git Sync's frontmatter form; the cover's only where the page has one. */
export function gitSyncLayout(stored: Record<string, unknown> | null, hasCover: boolean): Record<string, unknown> {
  const layout = { ...DEFAULT_LAYOUT, ...(stored ?? {}) } as Record<string, unknown>;
  const written: Record<string, unknown> = { width: layout.width };
  if (hasCover) written.cover = { visible: layout.cover, size: layout.coverSize, mask: layout.coverMask };
  for (const option of VISIBILITY_OPTIONS) {
    // Git Sync writes no anchors option; one that hides them is written so that it reads back.
    if (option === 'anchors' && layout.anchors !== false) continue;
    written[option] = { visible: layout[option] };
  }
  return written;
}
