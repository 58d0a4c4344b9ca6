import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  CHROMIUM_INSTALL_TIMEOUT_MS,
  ensureChromium,
  findChromium,
  missingChromiumMessage,
  whyChromiumCannotBeInstalled,
} from './chromium.js';

export { ensureChromium } from './chromium.js';
export { checkAccessibility, describeViolation, expectNoSeriousViolations } from './accessibility.js';
export type { AccessibilityViolation } from './accessibility.js';

/** Where screenshots go: test-output/ at the repository root, ignored by git. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));

/**
 * The first launch may install Chromium with apt-get, far beyond Vitest's hook
 * timeout (vitest.config.ts) on a fresh CI machine; a launch alone takes well under a second.
 */
export const BROWSER_SETUP_TIMEOUT_MS = CHROMIUM_INSTALL_TIMEOUT_MS + 2 * 60_000;

/**
 * This machine's network is closed: without these Chromium keeps trying to reach
 * Google's services. Playwright adds `--headless` itself (headless: true), and
 * gives every launch a new empty profile (it refuses a --user-data-dir here).
 */
const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Chromium, installing it first if needed. The caller closes it. */
export async function openBrowser(): Promise<Browser> {
  const executablePath = await ensureChromium();
  // Chromium's sandbox refuses to start as root; as anyone else it stays on.
  const asRoot = process.getuid?.() === 0;
  return chromium.launch({
    executablePath,
    headless: true,
    chromiumSandbox: !asRoot,
    args: asRoot ? [...CHROMIUM_FLAGS, '--no-sandbox'] : CHROMIUM_FLAGS,
  });
}

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
