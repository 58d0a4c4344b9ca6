import type { ElementContent } from 'hast';
import { h } from 'hastscript';

/** Where in the site a reader answer is: what a page view names. */
export interface ViewedPlace {
  siteSection: string | null;
  siteSpace: string;
  space: string;
  revision: string;
  /** Null for a 404 inside a site space. */
  page: string | null;
}

export const MAX_COMMENT_LENGTH = 512;

/** The form under a page (the site's `feedback` setting): it posts as browsers do, with no script. */
export function feedbackForm(action: string, spaceId: string, pageId: string): ElementContent {
  return h('form.page-feedback', { method: 'post', action }, [
    h('input', { type: 'hidden', name: 'space', value: spaceId }),
    h('input', { type: 'hidden', name: 'page', value: pageId }),
    h('fieldset', [
      h('legend', 'Was this page helpful?'),
      h('label', [
        'Tell us more (optional)',
        h('textarea', { name: 'comment', maxLength: MAX_COMMENT_LENGTH, rows: 2 }),
      ]),
      h('button', { type: 'submit', name: 'rating', value: 'good' }, 'Yes'),
      h('button', { type: 'submit', name: 'rating', value: 'ok' }, 'Somewhat'),
      h('button', { type: 'submit', name: 'rating', value: 'bad' }, 'No'),
    ]),
  ]);
}
