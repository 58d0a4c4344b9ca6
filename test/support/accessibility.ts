import { setTimeout as sleep } from 'node:timers/promises';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export type AccessibilityViolation = axe.Result;

/** The impacts a page must not have: WCAG failures that block some readers outright. */
const BLOCKING_IMPACTS: readonly axe.ImpactValue[] = ['serious', 'critical'];

/**
 * axe-core waits on the page's timers, which never fire in a context opened with
 * javaScriptEnabled: false: without this check the run would hang until the test times out.
 */
async function pageRunsTimers(page: Page): Promise<boolean> {
  const fired = page.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 0)));
  return Promise.race([fired.catch(() => false), sleep(1_000, false)]);
}

/** Runs axe-core in the page as it is now and returns its violations, every impact. */
export async function checkAccessibility(page: Page): Promise<AccessibilityViolation[]> {
  if (!(await pageRunsTimers(page))) {
    throw new Error(
      'checkAccessibility needs a browser context with JavaScript enabled (not javaScriptEnabled: false): axe-core runs in the page',
    );
  }
  // Evaluated through the DevTools protocol rather than added as a <script>:
  // the service's pages forbid scripts by Content-Security-Policy.
  await page.evaluate(axe.source);
  const options: axe.RunOptions = { resultTypes: ['violations'] };
  const results = await page.evaluate(
    (runOptions) => (globalThis as unknown as { axe: typeof axe }).axe.run(runOptions),
    options,
  );
  return results.violations;
}

/** Fails with one line per serious or critical violation: rule, impact, help, and where. */
export async function expectNoSeriousViolations(page: Page): Promise<void> {
  const blocking = (await checkAccessibility(page)).filter((violation) =>
    BLOCKING_IMPACTS.includes(violation.impact ?? null),
  );
  expect(blocking.map(describeViolation), `accessibility violations on ${page.url()}`).toEqual([]);
}

/** One line for a violation: rule id, impact, help, and the first three elements it names. */
export function describeViolation(violation: AccessibilityViolation): string {
  const where = violation.nodes.slice(0, 3).map((node) => node.target.flat().join(' '));
  const more = violation.nodes.length > where.length ? ` and ${violation.nodes.length - where.length} more` : '';
  return `${violation.id} (${violation.impact}): ${violation.help}, at ${where.join(', ')}${more}`;
}
