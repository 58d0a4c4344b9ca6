import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { openBrowser } from '../test/support/chromium.js';
import type { PageSource } from './gitbook-docs-source.js';

/**
 * Full-page screenshots of the richest pages, chosen by counting the blocks
 * GitBook users notice first: figures, steppers, cards and tabs.
 */

const PICKED = 3;

export function richestPages(sources: Iterable<PageSource>): PageSource[] {
  const score = ({ richness }: PageSource) =>
    richness.figures + 3 * richness.steppers + 3 * richness.cards + 2 * richness.tabs;
  return [...sources].sort((a, b) => score(b) - score(a) || a.gitPath.localeCompare(b.gitPath)).slice(0, PICKED);
}

/** Saves a full-page PNG of each address into `folder`, named after its page; returns the files. */
export async function screenshots(pages: Array<{ gitPath: string; url: string }>, folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const browser = await openBrowser();
  try {
    const saved: string[] = [];
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const page of pages) {
      await tab.goto(page.url, { waitUntil: 'networkidle' });
      const file = path.join(folder, `${page.gitPath.replace(/\.md$/i, '').replace(/[^\w.-]+/g, '_')}.png`);
      await tab.screenshot({ path: file, fullPage: true });
      saved.push(file);
    }
    return saved;
  } finally {
    await browser.close();
  }
}
