import type { JSONDocument } from '../document/types.js';

/** What a document points at that only the reader's caller can resolve: pages (of this or another space) and files. */
export interface DocumentReferences {
  /** Page ids, with the space named when the reference names one. */
  pages: Array<{ page: string; space?: string }>;
  files: string[];
}

/**
 * The pages and files a document refers to, found in one walk of its nodes,
 * so that the caller resolves only those (a space may hold thousands of pages;
 * a document links a handful).
 */
export function documentReferences(document: JSONDocument): DocumentReferences {
  const pages = new Map<string, { page: string; space?: string }>();
  const files = new Set<string>();
  const pending: unknown[] = [document];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    const { data, nodes, fragments } = node as { data?: { ref?: unknown }; nodes?: unknown; fragments?: unknown };
    const ref = data?.ref as { kind?: string; page?: unknown; space?: unknown; file?: unknown } | undefined;
    if (ref && (ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string') {
      const space = typeof ref.space === 'string' ? ref.space : undefined;
      pages.set(`${space ?? ''}/${ref.page}`, space ? { page: ref.page, space } : { page: ref.page });
    }
    if (ref && ref.kind === 'file' && typeof ref.file === 'string') files.add(ref.file);
    if (nodes !== undefined) pending.push(nodes);
    if (fragments !== undefined) pending.push(fragments);
  }
  return { pages: [...pages.values()], files: [...files] };
}
