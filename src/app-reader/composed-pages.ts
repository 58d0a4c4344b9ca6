import { LRUCache } from 'lru-cache';
import { perContext } from '../context.js';
import type { AppAnswer } from './shell.js';

/**
 * App pages of a space's own content, once composed, by everything they
 * follow from (spacePage names it): a member reads the same page again and
 * again, and composing its shell (the page tree, the layout, the HTML) was
 * most of an answer's time. What the caller may see is checked before this
 * is read, on every request.
 */
const COMPOSED_CHARACTERS = 16 * 1024 * 1024;

export const composedAppPages = perContext(
  () =>
    new LRUCache<string, AppAnswer>({
      maxSize: COMPOSED_CHARACTERS,
      sizeCalculation: (answer) => (answer.kind === 'page' ? answer.html.length : 0) + 512,
    }),
);
