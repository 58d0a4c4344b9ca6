import type { FastifyInstance } from 'fastify';
import { systemClock } from '../src/core/clock.js';
import { createSpace } from '../src/spaces/create.js';

/** How a seeded space's pages are laid out. */
export interface ContentShape {
  /** Top-level pages. */
  sections: number;
  /** Pages per section, the section page included; a fifth of them one level deeper, under the section's first children. */
  pagesPerSection: number;
}

/** 50 sections × 100 pages. */
export const BIG_SPACE: ContentShape = { sections: 50, pagesPerSection: 100 };
/** The same layout, a hundred times smaller: the merge measured on both shows whether its cost follows the space's size. */
export const SMALL_SPACE: ContentShape = { sections: 5, pagesPerSection: 10 };

export const pageCount = (shape: ContentShape) => shape.sections * shape.pagesPerSection;

/** A space of `pageCount(shape)` pages, as the API answers for it. */
export interface SeededContentSpace {
  spaceId: string;
  pages: number;
  /** A page without subpages in a middle section: what the single-page reads load. */
  leafPageId: string;
  /** Pages without subpages, one per section in turn, for the merge measurement to update. */
  leafPageIds: string[];
  /** The last change request merged to make the pages. */
  mergedChangeRequestId: string;
}

/** Changes per content write: the API's maximum. */
const BATCH = 50;
/** Writes per change request before it is merged. */
const BATCHES_PER_CHANGE_REQUEST = 2;

interface PlannedPage {
  /** The page's batch ref, and its key until the API gives it an id. */
  key: string;
  parentKey: string | null;
  title: string;
  /** The slug the API derives from the title (titles are ASCII words, so the rule is simple). */
  slug: string;
  /** A page, under the same parent, written earlier: what the markdown links to. */
  previousSlug: string | null;
  section: number;
  leaf: boolean;
}

/** Deterministic pseudo-random numbers in [0, 1), so two runs seed the same data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Titles of the seeded spaces' sections (and of the seeded site's). */
export const TOPICS = [
  'Getting started',
  'Authentication',
  'Organizations',
  'Spaces',
  'Collections',
  'Change requests',
  'Permissions',
  'Integrations',
  'Webhooks',
  'Billing',
  'Search',
  'Publishing',
  'Custom domains',
  'Git Sync',
  'Variables',
  'Files',
  'Comments',
  'Teams',
  'Single sign-on',
  'Audit log',
  'Rate limits',
  'Pagination',
  'Errors',
  'Versioning',
  'Localization',
];
export const VERBS = [
  'Configure',
  'Create',
  'Update',
  'Delete',
  'List',
  'Migrate',
  'Debug',
  'Monitor',
  'Secure',
  'Import',
  'Export',
  'Review',
];
export const NOUNS = [
  'tokens',
  'members',
  'pages',
  'revisions',
  'settings',
  'exports',
  'backups',
  'domains',
  'invites',
  'roles',
  'events',
  'quotas',
];
const WORDS = (
  'the a service request response page space content revision change merge token member role team organization api client server ' +
  'returns creates updates deletes lists reads writes keeps stores sends checks limits caches validates when each every only first ' +
  'new old current previous default custom public private shared cursor field value header status error retry timeout window ' +
  'markdown document section heading link list table code block example option setting feature release version'
).split(' ');

function sentence(next: () => number, words: number): string {
  const picked = Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]!);
  const text = picked.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function paragraph(next: () => number): string {
  return Array.from({ length: 2 + Math.floor(next() * 3) }, () => sentence(next, 8 + Math.floor(next() * 8))).join(' ');
}

/**
 * A docs page of 1 to 2 KB: headings, paragraphs, a bullet and a numbered
 * list, a code block, an external link and a link to a sibling page (which
 * the API rewrites to `/pages/<id>`). `variant` changes the text, for updates.
 */
export function pageMarkdown(page: Pick<PlannedPage, 'title' | 'previousSlug'>, seed: number, variant = 0): string {
  const next = random(seed * 7919 + variant * 104_729 + 1);
  const target = 1024 + Math.floor(next() * 800);
  const slug = page.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const parts = [
    `${paragraph(next)} See **${page.title}** in the \`v1\` API${variant ? ` (edit ${variant})` : ''}.`,
    '## Overview',
    paragraph(next),
    [
      `- ${sentence(next, 6)}`,
      `- Read [the reference](https://docs.example.com/reference/${slug}) for every field.`,
      `- ${sentence(next, 7)}`,
      ...(page.previousSlug ? [`- Before this, see [the previous page](./${page.previousSlug}.md).`] : []),
    ].join('\n'),
    '## Example',
    [
      '```ts',
      `const response = await fetch('https://api.example.com/v1/${slug}', {`,
      `  headers: { authorization: \`Bearer \${token}\` },`,
      '});',
      `if (!response.ok) throw new Error(\`${page.title} failed: \${response.status}\`);`,
      'const body = await response.json();',
      '```',
    ].join('\n'),
    '## Steps',
    [`1. ${sentence(next, 6)}`, `2. ${sentence(next, 8)}`, `3. ${sentence(next, 5)}`].join('\n'),
  ];
  let markdown = parts.join('\n\n');
  while (markdown.length < target) markdown += `\n\n${paragraph(next)}`;
  return `${markdown}\n`;
}

/** Sections in order, each followed by its pages; every parent before its children. */
function plan(shape: ContentShape): PlannedPage[] {
  const nested = Math.floor(shape.pagesPerSection / 5);
  const children = shape.pagesPerSection - 1 - nested;
  const perParent = 5;
  const pages: PlannedPage[] = [];
  const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  let previousSection: string | null = null;
  for (let s = 0; s < shape.sections; s++) {
    const sectionTitle = `${TOPICS[s % TOPICS.length]} ${Math.floor(s / TOPICS.length) + 1}`;
    const sectionKey = `s${s}`;
    const parentsOfNested = Math.ceil(nested / perParent);
    pages.push({
      key: sectionKey,
      parentKey: null,
      title: sectionTitle,
      slug: slugOf(sectionTitle),
      previousSlug: previousSection,
      section: s,
      leaf: false,
    });
    previousSection = slugOf(sectionTitle);
    let previous: string | null = null;
    for (let c = 0; c < children; c++) {
      const title = `${VERBS[c % VERBS.length]} ${NOUNS[Math.floor(c / VERBS.length) % NOUNS.length]} ${c + 1}`;
      pages.push({
        key: `s${s}c${c}`,
        parentKey: sectionKey,
        title,
        slug: slugOf(title),
        previousSlug: previous,
        section: s,
        leaf: c >= parentsOfNested,
      });
      previous = slugOf(title);
    }
    for (let n = 0; n < nested; n++) {
      const parent = Math.floor(n / perParent);
      const title = `Detail ${n + 1} of ${pages.find((page) => page.key === `s${s}c${parent}`)!.title}`;
      pages.push({
        key: `s${s}c${parent}n${n}`,
        parentKey: `s${s}c${parent}`,
        title,
        slug: slugOf(title),
        previousSlug: null,
        section: s,
        leaf: true,
      });
    }
  }
  return pages;
}

type Inject = (method: 'POST', url: string, payload: unknown) => Promise<unknown>;

/** Tries of a write the service refused as busy (503): it changed nothing, so it is sent again. */
const BUSY_TRIES = 20;

function injector(app: FastifyInstance, authorization: string): Inject {
  return async (method, url, payload) => {
    let response = await app.inject({ method, url, headers: { authorization }, payload: payload as object });
    // On a loaded machine the conversion pool may be full; the answer says when to come back.
    for (let tries = 1; response.statusCode === 503 && tries < BUSY_TRIES; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers['retry-after'] ?? 1)));
      response = await app.inject({ method, url, headers: { authorization }, payload: payload as object });
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      throw new Error(
        `Seeding content: ${method} ${url} answered ${response.statusCode}: ${response.body.slice(0, 500)}`,
      );
    }
    return response.json();
  };
}

/**
 * Creates a space in `organizationId` and writes `shape`'s pages into it
 * through the API (in-process, without a socket): batches of 50 insert_page
 * changes, two to a change request, each change request merged. So the rows
 * are exactly what the service writes, change request lines included.
 */
export async function seedContentSpace(
  app: FastifyInstance,
  authorization: string,
  organizationId: string,
  shape: ContentShape,
  title: string,
): Promise<SeededContentSpace> {
  const space = await createSpace(app.context.db, systemClock, {
    organizationId,
    parentId: null,
    title,
    emoji: null,
    editMode: 'live',
    visibility: 'private',
  });
  const post = injector(app, authorization);
  const base = `/v1/spaces/${space.id}/change-requests`;
  const pages = plan(shape);
  const ids = new Map<string, string>();

  let changeRequestId: string | undefined;
  let mergedChangeRequestId: string | undefined;
  let writes = 0;
  for (let first = 0; first < pages.length; first += BATCH) {
    changeRequestId ??= ((await post('POST', base, { subject: `Seed pages ${first + 1}+` })) as { id: string }).id;
    const batch = pages.slice(first, first + BATCH);
    const changes = batch.map((page, i) => ({
      operation: 'insert_page',
      ref: page.key,
      title: page.title,
      // A parent written earlier is named by its id, one in this batch by its ref.
      ...(page.parentKey === null ? {} : { into: ids.get(page.parentKey) ?? page.parentKey }),
      document: { markdown: pageMarkdown(page, first + i) },
    }));
    const written = (await post('POST', `${base}/${changeRequestId}/content?compat=false`, { changes })) as {
      changes: Array<{ object: string; page: { id: string }; ref?: string }>;
    };
    for (const change of written.changes) if (change.ref) ids.set(change.ref, change.page.id);
    if (++writes % BATCHES_PER_CHANGE_REQUEST === 0 || first + BATCH >= pages.length) {
      const merged = (await post('POST', `${base}/${changeRequestId}/merge`, {})) as { result: string };
      if (merged.result !== 'merge')
        throw new Error(`Seeding content: merging ${changeRequestId} gave ${merged.result}`);
      mergedChangeRequestId = changeRequestId;
      changeRequestId = undefined;
    }
  }
  if (ids.size !== pages.length) throw new Error(`Seeding content: ${ids.size} pages created, ${pages.length} planned`);

  const middle = Math.floor(shape.sections / 2);
  const leavesBySection = Array.from({ length: shape.sections }, (_, s) =>
    pages.filter((page) => page.leaf && page.section === s),
  );
  // Round-robin over the sections: each section's first leaf, then each one's second ...
  const leafPageIds: string[] = [];
  for (let k = 0; k < shape.pagesPerSection; k++) {
    for (const leaves of leavesBySection) if (leaves[k]) leafPageIds.push(ids.get(leaves[k]!.key)!);
  }
  return {
    spaceId: space.id,
    pages: pages.length,
    leafPageId: ids.get(leavesBySection[middle]!.find((page) => page.parentKey === `s${middle}`)!.key)!,
    leafPageIds,
    mergedChangeRequestId: mergedChangeRequestId!,
  };
}
