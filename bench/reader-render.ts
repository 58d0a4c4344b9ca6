import { pageMarkdown, type SeededContentSpace } from './seed-content.js';
import type { SeededReader } from './seed-reader.js';
import { jsonPoster } from './post-json.js';

/** Merges measured: each followed by the first read of the page it changed, then a second. */
export const READER_RENDER_CYCLES = 20;

export interface ReaderRenderMeasurement {
  cycles: number;
  /** The first read after the merge: the page rendered on the conversion pool. */
  firstMedianMs: number;
  firstMaxMs: number;
  /** The read after it: the rendered page served from memory. */
  cachedMedianMs: number;
}

const median = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * What a merge costs the first reader of the page it changed: each cycle
 * merges a change to a leaf page of the 50-page space, then reads that page
 * in the published reader twice, timing both.
 */
export async function measureReaderRender(
  base: string,
  authorization: string,
  space: SeededContentSpace,
  reader: SeededReader,
  cycles = READER_RENDER_CYCLES,
): Promise<ReaderRenderMeasurement> {
  const post = jsonPoster(base, authorization, 'reader render');
  const read = async (path: string) => {
    const started = performance.now();
    const response = await fetch(base + path);
    const html = await response.text();
    if (!response.ok || !html.includes('<article>'))
      throw new Error(`reader render: GET ${path} answered ${response.status}: ${html.slice(0, 300)}`);
    return { ms: performance.now() - started, html };
  };
  const changeRequests = `/v1/spaces/${space.spaceId}/change-requests`;
  const first: number[] = [];
  const cached: number[] = [];
  for (let i = 0; i < cycles; i++) {
    const pageId = space.leafPageIds[i % space.leafPageIds.length]!;
    const path = reader.smallLeafPaths.get(pageId)!;
    const markdown = pageMarkdown({ title: `Rendered page ${i + 1}`, previousSlug: null }, 2_000_000 + i, i + 1);
    const opened = await post<{ id: string }>(changeRequests, { subject: `Bench render ${i + 1}` });
    await post(`${changeRequests}/${opened.id}/content`, {
      changes: [{ operation: 'update_page', page: pageId, document: { markdown } }],
    });
    await post(`${changeRequests}/${opened.id}/merge`, {});
    first.push((await read(path)).ms);
    cached.push((await read(path)).ms);
  }
  return {
    cycles,
    firstMedianMs: median(first),
    firstMaxMs: Math.max(...first),
    cachedMedianMs: median(cached),
  };
}

export function readerRenderTable(measured: ReaderRenderMeasurement): string {
  return [
    `Reader: first read of a page after a merge changed it (${measured.cycles} merges, 50-page space)`,
    `  first read (rendered)  median ${measured.firstMedianMs.toFixed(1)} ms, max ${measured.firstMaxMs.toFixed(1)} ms`,
    `  second read (cached)   median ${measured.cachedMedianMs.toFixed(1)} ms`,
  ].join('\n');
}
