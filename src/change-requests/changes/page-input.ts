import { BadRequestError } from '../../core/errors.js';
import { isEmoji } from '../../core/emoji.js';
import type { JSONDocument, UrlDestination } from '../../document/index.js';
import type { Conversions } from '../../conversions/pool.js';
import type { VariableValues } from '../../db/types.js';
import type { InsertPage } from '../schemas.js';
import { readVariables } from '../../content/variables.js';
import { readCover, readLayout, type CoverInput } from '../../content/page-layout.js';

/** What a change says about a page: each field undefined when the change leaves it alone. */
export interface PageFields {
  title?: string;
  slug?: string;
  emoji?: string | null;
  icon?: string | null;
  description?: string | null;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: Record<string, unknown>;
  /** The cover's image and place, as the frontmatter's `cover`, `coverY` and `coverHeight` say. */
  cover?: CoverInput;
  variables?: VariableValues;
  /** The page's new content; null empties the page. */
  content?: NewContent | null;
}

/** A page's new markdown, with where its links are written (to put them in canonical form without a parse). */
export interface NewContent {
  markdown: string;
  destinations: UrlDestination[];
}

/** What a change's document says, read off the event loop before the batch is applied. */
export interface PageContent {
  frontmatter: Record<string, unknown>;
  /** A leading `# Title`, taken from the markdown where the frontmatter names no title. */
  title?: string;
  content: NewContent | null;
}

type DocumentInput = NonNullable<InsertPage['document']>;
type MetadataInput = Pick<
  InsertPage,
  'title' | 'slug' | 'emoji' | 'icon' | 'description' | 'hidden' | 'noIndex' | 'noRobotsIndex'
>;

function fail(field: string, rule: string): never {
  throw new BadRequestError(`${field} ${rule}`);
}

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.length > max) fail(field, `must be a string of at most ${max} characters`);
  return value;
}

function flag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') fail(field, 'must be true or false');
  return value;
}

/** Page fields a markdown document's frontmatter sets (Git Sync's names). */
function fromFrontmatter(data: Record<string, unknown>, field: string): PageFields {
  const fields: PageFields = {};
  for (const [key, value] of Object.entries(data)) {
    const name = `${field} frontmatter field ${key}`;
    switch (key) {
      case 'title':
        fields.title = text(value, name, 255);
        if (!fields.title) fail(name, 'must not be empty');
        break;
      case 'description':
        fields.description = text(value, name, 1000) || null;
        break;
      case 'slug':
        fields.slug = text(value, name, 100);
        break;
      case 'emoji': {
        const emoji = text(value, name, 50);
        if (emoji && !isEmoji(emoji)) fail(name, 'must be an emoji');
        fields.emoji = emoji || null;
        break;
      }
      case 'icon':
        fields.icon = text(value, name, 50) || null;
        break;
      case 'hidden':
        fields.hidden = flag(value, name);
        break;
      case 'noIndex':
        fields.noIndex = flag(value, name);
        break;
      case 'noRobotsIndex':
        fields.noRobotsIndex = flag(value, name);
        break;
      case 'layout':
        fields.layout = { ...fields.layout, ...readLayout(value, name) };
        break;
      case 'cover':
      case 'coverY':
      case 'coverHeight':
        // Read together below: the image and where it sits are one cover.
        break;
      case 'variables':
      case 'vars':
        // Names, values and count as the space's variables have them (content/variables.ts).
        fields.variables = readVariables(value, name);
        break;
      default:
        // Keys GitBook's pages do not have (a skill's `name`, `metadata` ...) say nothing of the page.
        break;
    }
  }
  const cover = readCover(data, (key) => `${field} frontmatter field ${key}`);
  if (cover?.layout) fields.layout = { ...cover.layout, ...fields.layout };
  // A cover mapping alone says how a cover shows, not which: the page's image stays.
  if (cover && (cover.image !== undefined || cover.yPos !== undefined || cover.height !== undefined)) {
    fields.cover = cover;
  }
  return fields;
}

/**
 * Reads a change's document on the conversion pool: the frontmatter and
 * leading `# Title` of markdown, the markdown of a JSON document, and the
 * link destinations of either.
 */
export async function readPageContent(
  conversions: Conversions,
  document: DocumentInput,
  field: string,
): Promise<PageContent> {
  if ('markdown' in document) {
    const read = await conversions.readPage(document.markdown, `${field}/document`);
    const content = read.markdown === '' ? null : { markdown: read.markdown, destinations: read.destinations };
    return { frontmatter: read.frontmatter, ...(read.title !== undefined ? { title: read.title } : {}), content };
  }
  if ('document' in document) {
    const read = await conversions.readDocument(document.document as unknown as JSONDocument, `${field}/document`);
    return { frontmatter: {}, content: read.markdown.trim() === '' ? null : read };
  }
  return { frontmatter: {}, content: null };
}

/**
 * The page fields a change sets: its own metadata, then what its document
 * says, which takes precedence (the frontmatter, and a leading `# Title`,
 * which becomes the title and leaves the body).
 */
export function readPageFields(metadata: MetadataInput, document: PageContent | undefined, field: string): PageFields {
  const fields: PageFields = {
    ...(metadata.title !== undefined ? { title: metadata.title } : {}),
    ...(metadata.slug !== undefined ? { slug: metadata.slug } : {}),
    ...(metadata.emoji !== undefined ? { emoji: metadata.emoji || null } : {}),
    ...(metadata.icon !== undefined ? { icon: metadata.icon || null } : {}),
    ...(metadata.description !== undefined ? { description: metadata.description || null } : {}),
    ...(metadata.hidden !== undefined ? { hidden: metadata.hidden } : {}),
    ...(metadata.noIndex !== undefined ? { noIndex: metadata.noIndex } : {}),
    ...(metadata.noRobotsIndex !== undefined ? { noRobotsIndex: metadata.noRobotsIndex } : {}),
  };
  if (document === undefined) return fields;
  const fromMatter = fromFrontmatter(document.frontmatter, `${field}/document`);
  return {
    ...fields,
    ...(document.title !== undefined ? { title: document.title } : {}),
    ...fromMatter,
    content: document.content,
  };
}
