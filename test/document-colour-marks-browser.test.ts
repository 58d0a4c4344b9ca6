import type { BrowserContext } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { markdownToDocument } from '../src/document/index.js';
import { renderDocument } from '../src/html/document-html.js';
import { READER_CSS } from '../src/reader/styles.js';
import { describeInBrowser, expectNoSeriousViolations, screenshot, useBrowser } from './support/browser.js';

const COLOURS = [
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
];

/** A paragraph of each colour as text, a paragraph of each as background, and the same inside a hint's surface. */
const MARKDOWN = [
  COLOURS.map((colour) => `<mark style="color:${colour};">${colour} text</mark>`).join(' '),
  COLOURS.map((colour) => `<mark style="background-color:${colour};">${colour} background</mark>`).join(' '),
  `{% hint style="info" %}\n${COLOURS.map((colour) => `<mark style="color:${colour};">${colour} in a hint</mark>`).join(' ')}\n{% endhint %}`,
].join('\n\n');

/** The reader's stylesheet around the rendered document, in a theme (`auto` follows the browser's scheme). */
function pageOf(theme: 'light' | 'dark' | 'auto'): string {
  const { html } = renderDocument({ document: markdownToDocument(`${MARKDOWN}\n`), pages: {}, files: {} });
  return (
    `<!doctype html><html lang="en" data-theme="${theme}"><head><title>Colours</title><style>${READER_CSS}</style></head>` +
    `<body><main><article class="content">${html}</article></main></body></html>`
  );
}

describeInBrowser('coloured text in a browser', () => {
  const b = useBrowser();
  let context: BrowserContext | undefined;

  afterAll(async () => {
    await context?.close();
  });

  it('takes each colour from the stylesheet and reads well in the light, the dark and the automatic dark theme', async () => {
    for (const [theme, scheme] of [
      ['light', 'light'],
      ['dark', 'light'],
      ['auto', 'dark'],
    ] as const) {
      await context?.close();
      context = await b.browser.newContext({ colorScheme: scheme, viewport: { width: 1000, height: 800 } });
      const page = await context.newPage();
      await page.setContent(pageOf(theme));
      const styles = await page.locator('.content span').evaluateAll((spans) => {
        const body = getComputedStyle(document.body);
        return spans.map((span) => {
          const style = getComputedStyle(span);
          return {
            classes: span.className,
            coloured: style.color !== body.color,
            background: style.backgroundColor,
          };
        });
      });
      expect(styles).toHaveLength(COLOURS.length * 3);
      for (const { classes, coloured, background } of styles) {
        if (classes.startsWith('text-')) expect(coloured, `${theme}: .${classes}`).toBe(true);
        else expect(background, `${theme}: .${classes}`).not.toBe('rgba(0, 0, 0, 0)');
      }
      await expectNoSeriousViolations(page);
      await screenshot(page, `coloured text ${theme} ${scheme}`);
    }
  });
});
