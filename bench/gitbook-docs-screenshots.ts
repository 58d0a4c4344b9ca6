import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ensureChromium } from '../test/support/chromium.js';
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

/** The same flags as the browser tests: this machine's network is closed. */
const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Saves a full-page PNG of each address into `folder`, named after its page; returns the files. */
export async function screenshots(pages: Array<{ gitPath: string; url: string }>, folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  const browser = await chromium.launch({
    executablePath: await ensureChromium(),
    headless: true,
    chromiumSandbox: !asRoot,
    args: asRoot ? [...CHROMIUM_FLAGS, '--no-sandbox'] : CHROMIUM_FLAGS,
  });
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
