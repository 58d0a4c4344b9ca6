import { createHash } from 'node:crypto';
import type { ComputedSource } from '../db/types.js';
import { slugify, uniqueSlug } from '../core/slug.js';
import type { SpecOutline, SpecWithOutline } from '../specs/outline-queries.js';
import type { ContentTree, PageState } from './tree.js';

/** Finds the specs of an organization by slug, with their latest outline; a slug without a processed version is left out. */
export type SpecResolver = (organizationId: string, slugs: readonly string[]) => Promise<Map<string, SpecWithOutline>>;

/**
 * A page a computed page makes, shown as a document page with the source of
 * its content (`computed`, GitBook's ComputedContentSourceDocument) and the
 * seed its id is made from. The computed page itself becomes the first of
 * them, about the spec as a whole; its children are the spec's tags, each with
 * its operations, and, where asked for, its models.
 */
export interface GeneratedPage {
  id: string;
  title: string;
  slug: string;
  source: Record<string, unknown>;
  seed: string;
  markdown: string;
  children: GeneratedPage[];
}

/** Operations without a tag are shown under this one. */
export const UNTAGGED = 'Other operations';

/**
 * The most characters of markdown one generated page holds, well within what
 * a page's markdown may be (its document is made from it on a read); what
 * does not fit is counted at the end instead.
 */
const MAX_GENERATED_MARKDOWN = 256 * 1024;

/** Joins the parts that fit, and says how many did not. */
function fitted(parts: string[], leftOut: (count: number) => string): string {
  let length = 0;
  let kept = 0;
  for (const part of parts) {
    if (length + part.length + 2 > MAX_GENERATED_MARKDOWN) break;
    length += part.length + 2;
    kept++;
  }
  const shown = parts.slice(0, kept);
  if (kept < parts.length) shown.push(leftOut(parts.length - kept));
  return `${shown.join('\n\n')}\n`;
}

/** A generated page's id: stable for the computed page and what it shows, so links to it keep working. */
export function generatedId(seed: string): string {
  return createHash('sha256').update(seed).digest('base64url').replace(/[-_]/g, '').slice(0, 20);
}

/** Text for a heading or a list item: one line, with markdown's own characters taken literally. */
function inline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/([\\`*_[\]#<>|!{}])/g, '\\$1');
}

function specValue({ spec }: SpecWithOutline) {
  return { object: 'openapi-spec', id: spec.id, slug: spec.slug, lastVersion: spec.lastVersion };
}

function sourceOf(source: ComputedSource, spec: SpecWithOutline, props: Record<string, unknown>) {
  return {
    type: 'builtin:openapi',
    props,
    dependencies: { spec: { ref: source.dependencies.spec.ref, value: specValue(spec) } },
  };
}

export function infoMarkdown(spec: SpecWithOutline, tagTitles: string[]): string {
  const { info } = spec.outline;
  const parts = [`**${inline(info.title)}**, version ${inline(info.version)}`];
  if (info.description) parts.push(info.description.trim());
  if (tagTitles.length > 0) parts.push(tagTitles.map((title) => `* ${inline(title)}`).join('\n'));
  return `${parts.join('\n\n')}\n`;
}

export function operationsMarkdown(description: string | undefined, operations: SpecOutline['operations']): string {
  const parts: string[] = [];
  if (description) parts.push(description.trim());
  for (const operation of operations) {
    const method = operation.method.toUpperCase();
    const lines = [
      `## ${inline(operation.summary || `${method} ${operation.path}`)}`,
      `\`\`\`http\n${method} ${operation.path.replace(/`/g, '')}\n\`\`\``,
    ];
    if (operation.deprecated) lines.push('{% hint style="warning" %}\nDeprecated.\n{% endhint %}');
    if (operation.description) lines.push(operation.description.trim());
    parts.push(lines.join('\n\n'));
  }
  return fitted(parts, (count) => `*${count} more operations are not shown here.*`);
}

export function modelsMarkdown(schemas: NonNullable<SpecOutline['schemas']>): string {
  const parts = schemas.map(
    (schema) => `## ${inline(schema.name)}${schema.description ? `\n\n${schema.description.trim()}` : ''}`,
  );
  return fitted(parts, (count) => `*${count} more models are not shown here.*`);
}

/** The pages a computed page shows of its spec: itself, about the spec, with a page per tag (and one of models). */
export function generatePages(page: PageState, source: ComputedSource, spec: SpecWithOutline): GeneratedPage {
  const { outline } = spec;
  const byTag = new Map<string, SpecOutline['operations']>();
  const describedTags = new Map(outline.tags.map((tag) => [tag.name, tag.description]));
  for (const tag of outline.tags) byTag.set(tag.name, []);
  for (const operation of outline.operations) {
    const tags = operation.tags.length > 0 ? operation.tags : [UNTAGGED];
    for (const tag of tags) {
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operation);
    }
  }
  const taken = new Set<string>();
  const children: GeneratedPage[] = [];
  for (const [tag, operations] of byTag) {
    if (operations.length === 0) continue;
    const seed = `${page.pageId}/operations/${tag}`;
    const slug = uniqueSlug(slugify(tag), taken);
    taken.add(slug);
    children.push({
      id: generatedId(seed),
      title: tag,
      slug,
      source: sourceOf(source, spec, { doc: 'operations', page: tag }),
      seed,
      markdown: operationsMarkdown(describedTags.get(tag), operations),
      children: [],
    });
  }
  if (source.props.models && outline.schemas && outline.schemas.length > 0) {
    const seed = `${page.pageId}/models`;
    const slug = uniqueSlug('models', taken);
    children.push({
      id: generatedId(seed),
      title: 'Models',
      slug,
      source: sourceOf(source, spec, { doc: 'models' }),
      seed,
      markdown: modelsMarkdown(outline.schemas),
      children: [],
    });
  }
  return {
    id: page.pageId,
    title: page.title,
    slug: page.slug,
    source: sourceOf(source, spec, { doc: 'info', page: page.title }),
    seed: page.pageId,
    markdown: infoMarkdown(
      spec,
      children.map((child) => child.title),
    ),
    children,
  };
}

/** What a read with `computed=true` shows in place of a revision's computed pages. */
export interface ComputedView {
  /** Names the specs' versions the pages were made from: part of the key of any answer cached with them. */
  key: string;
  /** What each computed page makes, by its id; one whose spec has no version yet is shown as written. */
  expansions: ReadonlyMap<string, GeneratedPage>;
}

/** What the tree's computed pages show, made from their specs' latest versions; undefined when it has none. */
export async function computedViewOf(
  tree: ContentTree,
  organizationId: string,
  resolve: SpecResolver,
): Promise<ComputedView | undefined> {
  const computed = tree.computedPages();
  if (computed.length === 0) return undefined;
  const slugs = [...new Set(computed.map((page) => page.computed.dependencies.spec.ref.spec))];
  const specs = await resolve(organizationId, slugs);
  const expansions = new Map<string, GeneratedPage>();
  const stamps: string[] = [];
  for (const page of computed) {
    const spec = specs.get(page.computed.dependencies.spec.ref.spec);
    stamps.push(`${page.versionId}@${spec?.spec.lastVersion ?? ''}`);
    if (spec) expansions.set(page.pageId, generatePages(page, page.computed, spec));
  }
  return { key: stamps.sort().join(','), expansions };
}

/** A page a computed page made, found by id among the expansions, with the computed page it came from and its path below it. */
export function findGeneratedPage(
  view: ComputedView,
  pageId: string,
): { page: GeneratedPage; origin: string; relativePath: string } | undefined {
  for (const [origin, root] of view.expansions) {
    const stack: Array<{ page: GeneratedPage; relativePath: string }> = root.children.map((child) => ({
      page: child,
      relativePath: child.slug,
    }));
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next.page.id === pageId) return { ...next, origin };
      for (const child of next.page.children)
        stack.push({ page: child, relativePath: `${next.relativePath}/${child.slug}` });
    }
  }
  return undefined;
}

declare module '../context.js' {
  interface Context {
    /** The OpenAPI specs computed pages name, with what their latest versions hold. */
    specOutlines: SpecResolver;
  }
}
