import type { ContentChange } from '../change-requests/schemas.js';
import type { ContentTree } from '../content/tree.js';
import type {
  LinkEntryTarget,
  RepositoryContent,
  RepositoryFile,
  SpaceRepository,
  TopLevelEntry,
  UnchangedSince,
} from './format/index.js';
import { groupSlugOf, isValidSlug } from './format/group-slug.js';
import { slugOfGitPath } from './format/paths.js';

/**
 * What a repository changes in a space's content, as the change-request
 * content route's changes: only what differs, each page matched to the page
 * it already is so that it keeps its id, its comments and its history, and
 * a page the space changed meanwhile is a conflict only where Git changed it
 * too.
 *
 * An entry is matched by its place (its parent's and its own slug, as the
 * import made it: `guides/intro.md` under the group `basics` is
 * `group:basics/intro`), else by its title under the same parent, else, for
 * a page, by its file's identical text (a page Git moved). Then, in this
 * order: pages and groups placed (inserted, or moved where their parent or
 * their order among the siblings they keep changed), pages whose file
 * changed rewritten, and what the repository no longer has deleted.
 *
 * `unchanged` (from the fingerprints of the last sync) leaves alone what Git
 * did not change since: a table of contents Git did not touch places and
 * deletes nothing, a page file it did not touch is not rewritten, even
 * where the format cannot hold all of it.
 */

export interface RepositoryChanges {
  /** The repository's assets that the space lacks or has other bytes for, by name. */
  files: RepositoryFile[];
  /** Page changes in order; new pages are named by refs (`bindWrite` across writes). */
  changes: ContentChange[];
}

interface Node {
  entry: TopLevelEntry;
  key: string;
  parent: Node | null;
  children: Node[];
}

/** The entries in order, parents before children, each with its place's key. */
function nodesOf(content: RepositoryContent): { roots: Node[]; all: Node[]; byPath: Map<string, Node> } {
  const all: Node[] = [];
  const byPath = new Map<string, Node>();
  const links: Node[] = [];
  const visit = (entries: readonly TopLevelEntry[], parent: Node | null): Node[] =>
    entries.map((entry) => {
      const node: Node = { entry, key: '', parent, children: [] };
      const within = parent?.key ?? '';
      if (entry.kind === 'group') node.key = `group:${entry.slug}`;
      else if (entry.kind === 'page')
        node.key = entry.path === content.config.readme ? 'readme:' : `${within}/${slugOfGitPath(entry.path)}`;
      else links.push(node);
      all.push(node);
      if (entry.kind === 'page' && !byPath.has(entry.path)) byPath.set(entry.path, node);
      if (entry.kind !== 'link') node.children = visit(entry.children, node);
      return node;
    });
  const roots = visit(content.entries, null);
  // A link's key names its target by the target's key, which both sides share where its path may differ.
  for (const node of links) {
    const link = node.entry as Extract<TopLevelEntry, { kind: 'link' }>;
    node.key = `${node.parent?.key ?? ''}/link:${link.title}>${targetKey(link.target, byPath)}`;
  }
  return { roots, all, byPath };
}

function targetKey(target: LinkEntryTarget, byPath: ReadonlyMap<string, Node>): string {
  if ('url' in target) return `url:${target.url}`;
  return `page:${byPath.get(target.path)?.key ?? target.path}#${target.anchor}`;
}

/** The entries of the repository matched to the space's pages: id by repository node. */
function matchEntries(
  space: { all: Node[] },
  { ids, unread }: Pick<SpaceRepository, 'ids' | 'unread'>,
  repository: { all: Node[] },
) {
  const matched = new Map<Node, string>();
  const taken = new Set<string>();
  const spaceByKey = new Map<string, Node>();
  for (const node of space.all) if (!spaceByKey.has(node.key)) spaceByKey.set(node.key, node);
  const take = (node: Node, id: string) => {
    matched.set(node, id);
    taken.add(id);
  };
  const idOf = (node: Node) => ids.get(node.entry)!;

  for (const node of repository.all) {
    const found = spaceByKey.get(node.key);
    if (found && found.entry.kind === node.entry.kind && !taken.has(idOf(found))) take(node, idOf(found));
  }
  // The space's entries by kind, parent and title, in order: where an entry not matched by place is looked for.
  const placeKey = (kind: string, parentId: string | null, title: string) =>
    `${kind}\u0000${parentId ?? ''}\u0000${title}`;
  const spaceByTitle = new Map<string, Node[]>();
  for (const node of space.all) {
    const key = placeKey(node.entry.kind, node.parent === null ? null : idOf(node.parent), node.entry.title);
    const same = spaceByTitle.get(key);
    if (same) same.push(node);
    else spaceByTitle.set(key, [node]);
  }
  // Parents before children: a child's parent is matched, or not, by the time it is looked at.
  for (const node of repository.all) {
    if (matched.has(node) || node.entry.kind === 'link') continue;
    const parentId = node.parent === null ? null : matched.get(node.parent);
    if (parentId === undefined) continue;
    const found = spaceByTitle
      .get(placeKey(node.entry.kind, parentId, node.entry.title))
      ?.find((candidate) => !taken.has(idOf(candidate)));
    if (found) take(node, idOf(found));
  }
  const spaceByText = new Map<string, Node>();
  for (const node of space.all)
    if (
      node.entry.kind === 'page' &&
      !unread.has(node.entry) &&
      !taken.has(idOf(node)) &&
      !spaceByText.has(node.entry.markdown)
    )
      spaceByText.set(node.entry.markdown, node);
  for (const node of repository.all) {
    if (matched.has(node) || node.entry.kind !== 'page') continue;
    const found = spaceByText.get(node.entry.markdown);
    if (found && !taken.has(idOf(found))) take(node, idOf(found));
  }
  return matched;
}

/** Indexes of `values` that form a longest increasing run (not contiguous): the siblings that keep their place. */
function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Array<number>(values.length).fill(-1);
  for (let i = 0; i < values.length; i++) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (values[tails[mid]!]! < values[i]!) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[i] = tails[low - 1]!;
    tails[low] = i;
  }
  const kept = new Set<number>();
  for (let i = tails.at(-1) ?? -1; i !== -1; i = previous[i]!) kept.add(i);
  return kept;
}

/** The sibling lists of the tree as the changes so far leave them, by parent (an id, a ref, or null for the top). */
class Siblings {
  private readonly lists = new Map<string | null, string[]>();
  private readonly parents = new Map<string, string | null>();

  constructor(private readonly tree: ContentTree) {}

  listOf(parent: string | null): string[] {
    let list = this.lists.get(parent);
    if (!list) {
      const children = parent === null || this.tree.pages.has(parent) ? this.tree.childrenOf(parent) : [];
      list = children.map((page) => page.pageId);
      for (const id of list) this.parents.set(id, parent);
      this.lists.set(parent, list);
    }
    return list;
  }

  parentOf(id: string): string | null | undefined {
    if (this.parents.has(id)) return this.parents.get(id);
    const page = this.tree.pages.get(id);
    if (!page) return undefined;
    this.listOf(page.parentId);
    return this.parents.get(id);
  }

  /** Takes `handle` out of where it is and puts it right after `after` (first when null) under `parent`; its index there. */
  place(handle: string, parent: string | null, after: string | null): number {
    const from = this.parentOf(handle);
    if (from !== undefined) {
      const list = this.listOf(from);
      list.splice(list.indexOf(handle), 1);
    }
    const list = this.listOf(parent);
    const at = after === null ? 0 : list.indexOf(after) + 1;
    list.splice(at, 0, handle);
    this.parents.set(handle, parent);
    return at;
  }
}

const REF = /^\S{1,256}$/;
const MAX_TITLE = 255;
const titleOf = (title: string) => (title ? { title: title.slice(0, MAX_TITLE) } : {});

export function repositoryChanges(
  space: SpaceRepository,
  repository: RepositoryContent,
  unchanged?: UnchangedSince,
): RepositoryChanges {
  const before = nodesOf(space.content);
  const after = nodesOf(repository);
  const matched = matchEntries(before, space, after);
  const spaceNodeOf = new Map<string, Node>(before.all.map((node) => [space.ids.get(node.entry)!, node]));
  const structure = !unchanged?.structure;
  const changes: ContentChange[] = [];
  const refs = new Map<Node, string>();
  const usedRefs = new Set<string>();
  const handleOf = (node: Node) => matched.get(node) ?? refs.get(node)!;

  const refFor = (node: Node): string => {
    const entry = node.entry;
    const path = entry.kind === 'page' ? entry.path : '';
    // A ref must not be the path of a page the change request already has (the content route refuses it).
    let ref =
      path && REF.test(path) && !space.tree.pageAtPath(path.replace(/\.md$/i, '')) && !usedRefs.has(path)
        ? path
        : `${entry.kind}:${usedRefs.size}`;
    while (usedRefs.has(ref)) ref = `${entry.kind}:${usedRefs.size}:${ref}`;
    usedRefs.add(ref);
    return ref;
  };

  const insertOf = (node: Node, parent: string | null, at: number): ContentChange => {
    const entry = node.entry;
    const into = parent === null ? {} : { into: parent };
    const ref = refs.get(node)!;
    if (entry.kind === 'group') {
      const slug = isValidSlug(entry.slug) ? entry.slug : groupSlugOf(entry);
      return { operation: 'insert_page', ref, type: 'group', ...titleOf(entry.title), slug, at };
    }
    if (entry.kind === 'link') {
      const target = entry.target;
      const page = 'path' in target ? after.byPath.get(target.path) : undefined;
      // readRepository keeps no link entry to a page it does not have.
      if ('path' in target && !page)
        throw new Error(`The link entry "${entry.title}" leads to ${target.path}, which is no page of the content`);
      return {
        operation: 'insert_page',
        ref,
        type: 'link',
        ...titleOf(entry.title),
        ...into,
        at,
        target:
          'url' in target
            ? { kind: 'url', url: target.url }
            : target.anchor
              ? { kind: 'anchor', anchor: target.anchor, page: handleOf(page!) }
              : { kind: 'page', page: handleOf(page!) },
      };
    }
    const slug = slugOfGitPath(entry.path);
    return {
      operation: 'insert_page',
      ref,
      ...titleOf(entry.title),
      ...(isValidSlug(slug) ? { slug } : {}),
      ...into,
      at,
      document: { markdown: entry.markdown },
    };
  };

  if (structure) {
    // Every new entry has its ref before any change names it (a link may lead to a page placed after it).
    for (const node of after.all) if (!matched.has(node)) refs.set(node, refFor(node));
    const siblings = new Siblings(space.tree);
    const links: Array<{ link: Node; parent: string | null; previous: string | null }> = [];
    const place = (parentNode: Node | null, children: readonly Node[]) => {
      const parent = parentNode === null ? null : handleOf(parentNode);
      const list = siblings.listOf(parent);
      const staying = children.filter(
        (child) => matched.has(child) && siblings.parentOf(matched.get(child)!) === parent,
      );
      const kept = longestIncreasing(staying.map((child) => list.indexOf(matched.get(child)!)));
      const keep = new Set(staying.filter((_, index) => kept.has(index)));
      // The sibling before, of all (for a new link), and of those already in place (for the rest).
      let previous: string | null = null;
      let previousPlaced: string | null = null;
      for (const child of children) {
        const handle = handleOf(child);
        if (!matched.has(child) && child.entry.kind === 'link') {
          // A new link goes in once every page it may lead to exists, right after the sibling before it.
          links.push({ link: child, parent, previous });
          previous = handle;
          continue;
        }
        if (!keep.has(child)) {
          const at = siblings.place(handle, parent, previousPlaced);
          changes.push(
            matched.has(child)
              ? { operation: 'update_page', page: handle, into: parent, at }
              : insertOf(child, parent, at),
          );
        }
        previous = previousPlaced = handle;
        place(child, child.children);
      }
    };
    place(null, after.roots);
    for (const { link, parent, previous } of links)
      changes.push(insertOf(link, parent, siblings.place(handleOf(link), parent, previous)));
  }

  for (const node of after.all) {
    const id = matched.get(node);
    if (id === undefined) continue;
    const was = spaceNodeOf.get(id)!.entry;
    const entry = node.entry;
    const title = structure && entry.title !== was.title && entry.title ? titleOf(entry.title) : {};
    if (entry.kind === 'page' && was.kind === 'page') {
      // A page whose file the space did not write (`unread`) is rewritten when Git changed it.
      const rewrite = !unchanged?.pages.has(entry.path) && (space.unread.has(was) || entry.markdown !== was.markdown);
      if (rewrite || 'title' in title)
        changes.push({
          operation: 'update_page',
          page: id,
          ...title,
          ...(rewrite ? { document: { markdown: entry.markdown } } : {}),
        });
    } else if (entry.kind === 'group' && 'title' in title) {
      changes.push({ operation: 'update_page', page: id, ...title });
    }
  }

  if (structure) {
    const kept = new Set(matched.values());
    for (const node of before.all) {
      const id = space.ids.get(node.entry)!;
      const parentKept = node.parent === null || kept.has(space.ids.get(node.parent.entry)!);
      if (!kept.has(id) && parentKept) changes.push({ operation: 'delete_page', page: id });
    }
  }

  const spaceFiles = new Map(space.content.files.map((file) => [file.name, file.bytes]));
  const files = repository.files.filter((file) => {
    const bytes = spaceFiles.get(file.name);
    if (bytes !== undefined && Buffer.from(bytes).equals(Buffer.from(file.bytes))) return false;
    return !unchanged?.assets.has(file.name);
  });
  return { files, changes };
}
