import fc from 'fast-check';
import { generateKeyBetween } from 'fractional-indexing';
import { describe, expect, it } from 'vitest';
import { applyChanges } from '../src/change-requests/changes/apply.js';
import type { PageContent } from '../src/change-requests/changes/page-input.js';
import type { ContentChange } from '../src/change-requests/schemas.js';
import { ContentTree, type PageState } from '../src/content/tree.js';
import type { NestedEntry, RepositoryContent, SpaceRepository, TopLevelEntry } from '../src/git-sync/format/index.js';
import { DEFAULT_CONFIG } from '../src/git-sync/format/index.js';
import { repositoryChanges } from '../src/git-sync/repository-changes.js';
import { PAGE_TIME, pageState } from './support/page-state.js';

/**
 * The changes an import makes, applied as the content route applies them,
 * leave the space's tree exactly as the repository's table of contents says
 * (same parents, same order), and every page that stays keeps its id:
 * checked for random trees and random edits (moves, reorders, inserts,
 * deletes, groups, links).
 */

/** An outline: a page is its name and children; `@name` is a group (top level), `>name` a link to page `name`. */
type Outline = Array<{ name: string; children: Outline }>;

/** The outline as repository content; page `name` lives at `name.md` (slugs stay unique across the whole tree). */
function contentOf(outline: Outline): RepositoryContent {
  const entries = (items: Outline): TopLevelEntry[] =>
    items.map(({ name, children }): TopLevelEntry => {
      if (name.startsWith('@'))
        return { kind: 'group', title: name, slug: name.slice(1), children: entries(children) as NestedEntry[] };
      if (name.startsWith('>'))
        return { kind: 'link', title: name, target: { path: `${name.slice(1)}.md`, anchor: '' } };
      return {
        kind: 'page',
        title: name,
        path: `${name}.md`,
        markdown: `# ${name}\n`,
        children: entries(children) as NestedEntry[],
      };
    });
  return { config: { ...DEFAULT_CONFIG, readme: 'none.md' }, entries: entries(outline), files: [], redirects: [] };
}

/** The outline as the space holds it: a tree, the same content, and the page of each entry (its name). */
function spaceOf(outline: Outline): SpaceRepository {
  const pages = new Map<string, PageState>();
  const place = (items: Outline, parentId: string | null) => {
    let position: string | null = null;
    for (const { name, children } of items) {
      position = generateKeyBetween(position, null);
      const type = name.startsWith('@') ? 'group' : name.startsWith('>') ? 'link' : 'document';
      const target = type === 'link' ? { kind: 'page', page: name.slice(1) } : null;
      pages.set(
        name,
        pageState({
          pageId: name,
          parentId,
          position,
          type,
          title: name,
          slug: name.replace(/^@/, '').replace(/^>/, 'link-'),
          target,
        }),
      );
      place(children, name);
    }
  };
  place(outline, null);
  const content = contentOf(outline);
  const ids = new Map<TopLevelEntry, string>();
  const visit = (entries: readonly TopLevelEntry[]) => {
    for (const entry of entries) {
      ids.set(entry, entry.title);
      if (entry.kind !== 'link') visit(entry.children);
    }
  };
  visit(content.entries);
  return { content, ids, unread: new Set(), tree: new ContentTree(pages, new Map()) };
}

/** The tree as an outline of titles, and each title's page id. */
function outlineOf(tree: ContentTree): { outline: Outline; ids: Map<string, string> } {
  const ids = new Map<string, string>();
  const visit = (parentId: string | null): Outline =>
    tree.childrenOf(parentId).map((page) => {
      ids.set(page.title, page.pageId);
      return { name: page.title, children: visit(page.pageId) };
    });
  return { outline: visit(null), ids };
}

function apply(space: SpaceRepository, changes: ContentChange[]): ContentTree {
  // Contents are not what is checked here: each document is read as an empty page, the places stay.
  const contents = new Map<number, PageContent>();
  for (const [index, change] of changes.entries())
    if ('document' in change && change.document) contents.set(index, { frontmatter: {}, content: null });
  return applyChanges(space.tree, changes, { files: new Map(), contents }, PAGE_TIME).tree;
}

/** A random outline of pages named p0…, groups at the top, links to earlier pages. */
const outlines = fc
  .array(fc.tuple(fc.nat(30), fc.constantFrom('page', 'page', 'page', 'group', 'link')), { maxLength: 24 })
  .map((draws) => {
    const top: Outline = [];
    const all: Array<{ name: string; children: Outline; top: boolean }> = [];
    let pages = 0;
    let groups = 0;
    for (const [at, kind] of draws) {
      const parent = all.filter((node) => !node.name.startsWith('>'))[at % (all.length + 1)];
      if (kind === 'group') {
        const node = { name: `@g${groups++}`, children: [], top: true };
        top.push(node);
        all.push(node);
      } else if (kind === 'link') {
        const targets = all.filter((node) => /^p\d+$/.test(node.name));
        if (targets.length === 0) continue;
        const node = { name: `>${targets[at % targets.length]!.name}`, children: [], top: !parent };
        if (node.name && !all.some((other) => other.name === node.name)) {
          (parent ? parent.children : top).push(node);
          all.push(node);
        }
      } else {
        const node = { name: `p${pages++}`, children: [], top: !parent };
        (parent ? parent.children : top).push(node);
        all.push(node);
      }
    }
    const strip = (items: Outline): Outline => items.map(({ name, children }) => ({ name, children: strip(children) }));
    return strip(top);
  });

/** An edit of an outline: pages moved, reordered, removed (with what they hold, unless moved out first) or added. */
const edited = (outline: Outline) =>
  fc
    .array(fc.tuple(fc.constantFrom('move', 'remove', 'add', 'reverse'), fc.nat(40), fc.nat(40)), { maxLength: 6 })
    .map((edits) => {
      const copy = structuredClone(outline);
      let added = 0;
      const lists = () => {
        const found: Outline[] = [copy];
        const visit = (items: Outline) => {
          for (const item of items) {
            if (item.name.startsWith('>')) continue;
            found.push(item.children);
            visit(item.children);
          }
        };
        visit(copy);
        return found;
      };
      const hasPage = (items: Outline, name: string): boolean =>
        items.some((item) => item.name === name || hasPage(item.children, name));
      for (const [kind, a, b] of edits) {
        const all = lists();
        const from = all[a % all.length]!;
        if (kind === 'reverse') from.reverse();
        else if (kind === 'add') from.splice(b % (from.length + 1), 0, { name: `new${added++}`, children: [] });
        else if (from.length > 0) {
          const [item] = from.splice(a % from.length, 1);
          if (kind === 'move') {
            const into = lists().filter(
              (list) =>
                (list !== item!.children && !JSON.stringify(item).includes(JSON.stringify(list))) || list === copy,
            );
            const target = into[b % into.length]!;
            // A group stays at the top; nothing goes into itself.
            if (item!.name.startsWith('@')) copy.splice(b % (copy.length + 1), 0, item!);
            else if (target === copy || !item!.children.includes(target as never))
              target.splice(b % (target.length + 1), 0, item!);
          }
        }
      }
      // A link whose page is gone goes too; a page named twice is dropped the second time.
      const seen = new Set<string>();
      const clean = (items: Outline): Outline =>
        items.flatMap((item) => {
          if (seen.has(item.name)) return [];
          seen.add(item.name);
          return [{ name: item.name, children: clean(item.children) }];
        });
      const cleaned = clean(copy);
      const links = (items: Outline): Outline =>
        items.flatMap((item) =>
          item.name.startsWith('>') && !hasPage(cleaned, item.name.slice(1))
            ? []
            : [{ name: item.name, children: links(item.children) }],
        );
      // Groups are top-level only, as GitBook's are.
      const groupsOnTop = (items: Outline, top: boolean): Outline =>
        items.flatMap((item) =>
          item.name.startsWith('@') && !top ? [] : [{ name: item.name, children: groupsOnTop(item.children, false) }],
        );
      return groupsOnTop(links(cleaned), true);
    });

describe('the changes an import makes', () => {
  it('leave the tree as the repository says, and every page that stays keeps its id', () => {
    fc.assert(
      fc.property(
        outlines.chain((before) => fc.tuple(fc.constant(before), edited(before))),
        ([before, after]) => {
          const space = spaceOf(before);
          const { changes } = repositoryChanges(space, contentOf(after));
          const result = outlineOf(apply(space, changes));
          expect(result.outline).toEqual(after);
          for (const [title, id] of result.ids)
            if (!title.startsWith('new') && !title.startsWith('>')) expect(id).toBe(title);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('are none for a repository that holds what the space holds', () => {
    fc.assert(
      fc.property(outlines, (outline) => {
        expect(repositoryChanges(spaceOf(outline), contentOf(outline))).toEqual({ files: [], changes: [] });
      }),
      { numRuns: 200 },
    );
  });

  it('move only the pages whose place changed: a reversed pair of siblings among many is one move', () => {
    const before: Outline = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'].map((name) => ({ name, children: [] }));
    const after = [before[0]!, before[1]!, before[3]!, before[2]!, before[4]!, before[5]!];
    const { changes } = repositoryChanges(spaceOf(before), contentOf(after));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ operation: 'update_page', into: null });
  });

  it('give a new group whose slug cannot be one the slug of its title', () => {
    const repository = contentOf([{ name: 'p0', children: [] }]);
    repository.entries.push({ kind: 'group', title: 'Get started', slug: 'get started', children: [] });
    const { changes } = repositoryChanges(spaceOf([{ name: 'p0', children: [] }]), repository);
    expect(changes).toEqual([
      expect.objectContaining({ operation: 'insert_page', type: 'group', slug: 'get-started' }),
    ]);
  });
});
