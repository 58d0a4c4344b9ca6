import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  CHROMIUM_INSTALL_TIMEOUT_MS,
  findChromium,
  missingChromiumMessage,
  openBrowser,
  whyChromiumCannotBeInstalled,
} from './chromium.js';

export { ensureChromium, openBrowser } from './chromium.js';
export { checkAccessibility, describeViolation, expectNoSeriousViolations } from './accessibility.js';
export type { AccessibilityViolation } from './accessibility.js';

/** Where screenshots go: test-output/ at the repository root, ignored by git. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));

/**
 * The first launch may install Chromium with apt-get, far beyond Vitest's hook
 * timeout (vitest.config.ts) on a fresh CI machine; a launch alone takes well under a second.
 */
export const BROWSER_SETUP_TIMEOUT_MS = CHROMIUM_INSTALL_TIMEOUT_MS + 2 * 60_000;

export interface TestBrowser {
  browser: Browser;
}

/** One browser for the test file, opened before its first test and closed after its last. Read it inside tests. */
export function useBrowser(): TestBrowser {
  const context = {} as TestBrowser;
  beforeAll(async () => {
    context.browser = await openBrowser();
  }, BROWSER_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await context.browser?.close();
  });
  return context;
}

/** Why browser tests cannot run on this machine, or undefined when Chromium is here or can be installed. */
export function whyBrowserTestsCannotRun(): string | undefined {
  if (findChromium()) return undefined;
  const reason = whyChromiumCannotBeInstalled();
  return reason && missingChromiumMessage(reason);
}

function runningInCi(): boolean {
  const ci = process.env.CI ?? '';
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * A describe block for tests that need a browser. Where Chromium is neither here
 * nor installable, its tests are skipped with the reason, except in CI, where
 * a missing browser must fail rather than let the tests pass unnoticed.
 */
export function describeInBrowser(name: string, body: () => void): void {
  const blocker = whyBrowserTestsCannotRun();
  if (!blocker) {
    describe(name, body);
  } else if (runningInCi()) {
    describe(name, () => {
      it('has Chromium to run in', () => {
        throw new Error(blocker);
      });
    });
  } else {
    process.stderr.write(`Skipping "${name}": ${blocker}\n`);
    describe.skip(`${name} (skipped: no Chromium)`, body);
  }
}

/** Saves a full-page PNG as test-output/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  // A name is a file name, not a path: anything else becomes a dash.
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
