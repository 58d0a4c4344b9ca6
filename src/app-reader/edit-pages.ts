import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Caller } from '../access/auth.js';
import type { Context } from '../context.js';
import { trustedHtml, type ThemeChoice } from '../reader/layout.js';
import type { PageDraft, PageEdit } from './page-editing.js';
import { BLOCK_SNIPPETS } from './block-snippets.js';
import { SHOWN_PART_LABELS, SHOWN_PARTS, shownField, type PageLook } from './page-look.js';
import { changeRequestAddress } from './change-request-addresses.js';
import { editorScriptAddress } from './editor-script.js';
import { markdownEditorAddress } from './markdown-editor-asset.js';
import { appPage, type AppAnswer } from './shell.js';

/** What the editor shows beside the form: a rendered preview, the page as another writer saved it, or why a save failed. */
export interface EditorView {
  preview?: string;
  /** The page as it is now, when it changed since the writer opened it. */
  theirs?: PageDraft;
  /** The writer's version and theirs merged in the editor: how many places both changed, marked there. */
  merged?: { clashes: number };
  error?: string;
  notice?: string;
}

/**
 * A page's editor: its title and markdown in a form that posts as a browser
 * does, with no script, to preview or to save into the change request.
 */
export function editorPage(
  context: Context,
  caller: Caller,
  theme: ThemeChoice | undefined,
  draft: PageDraft,
  edit: PageEdit,
  view: EditorView,
): AppAnswer {
  const { changeRequest } = draft;
  return appPage(context, caller, theme, 200, {
    title: `Editing ${draft.page.title}`,
    home: { href: context.urls.app('o', draft.space.organizationId), title: draft.space.title },
    main: [
      h('h1', `Editing ${draft.page.title}`),
      h('p', [
        `In change request #${changeRequest.number}: ${changeRequest.subject || 'Untitled'} (${changeRequest.status}). `,
        h('a', { href: draft.readUrl }, 'Read the page in the change request'),
      ]),
      ...(view.notice ? [h('p.notice', { role: 'status' }, view.notice)] : []),
      ...(view.error ? [h('p.error', { role: 'alert' }, view.error)] : []),
      ...(view.theirs ? theirVersion(view.theirs, view.merged) : []),
      h(
        'form.editor',
        {
          action: draft.editUrl,
          method: 'post',
          dataPreview: toolUrl(context, draft, 'preview'),
          dataAutosave: toolUrl(context, draft, 'autosave'),
          dataUpload: toolUrl(context, draft, 'upload'),
        },
        [
          h('label', { htmlFor: 'quire-title' }, 'Title'),
          h('input', {
            id: 'quire-title',
            name: 'title',
            required: true,
            minLength: 1,
            maxLength: 255,
            value: edit.title,
          }),
          h('fieldset.page-settings', [
            h('legend', 'Page settings'),
            h('label', { htmlFor: 'quire-description' }, 'Description'),
            h('textarea', { id: 'quire-description', name: 'description', rows: 2, maxLength: 1000 }, edit.description),
            h('label.checkbox', [
              h('input', { type: 'checkbox', name: 'hidden', value: 'on', checked: edit.hidden }),
              ' Hidden from the table of contents',
            ]),
            ...(edit.look ? lookSettings(edit.look) : []),
          ]),
          h('label#quire-markdown-label', { htmlFor: 'quire-markdown' }, 'Content, in markdown'),
          blockMenu(draft),
          h('textarea', { id: 'quire-markdown', name: 'markdown', rows: 24, spellCheck: true }, edit.markdown),
          h('input', { type: 'hidden', name: 'base', value: edit.base }),
          ...(edit.from ? [h('input', { type: 'hidden', name: 'from', value: edit.from })] : []),
          h('p', [
            h('button', { type: 'submit', name: 'action', value: 'preview' }, 'Preview'),
            ' ',
            h('button', { type: 'submit', name: 'action', value: 'save' }, 'Save'),
          ]),
          // Said by the editor's script, which saves the draft as the writer pauses; hidden without it.
          h('p#quire-autosave.autosave', { hidden: true, role: 'status', ariaLive: 'polite' }),
        ],
      ),
      h('section.page-tools', { 'aria-label': 'More about this page' }, [
        h('form', { action: toolUrl(context, draft, 'new'), method: 'post' }, [
          h('label', { htmlFor: 'quire-new-title' }, 'Add a page, titled'),
          h('input', { id: 'quire-new-title', name: 'title', required: true, minLength: 1, maxLength: 255 }),
          h('label.checkbox', [
            h('input', { type: 'radio', name: 'where', value: 'after', checked: true }),
            ' after this one',
          ]),
          h('label.checkbox', [h('input', { type: 'radio', name: 'where', value: 'below' }), ' inside this one']),
          h('button', { type: 'submit' }, 'Add the page'),
        ]),
        h('form', { action: toolUrl(context, draft, 'move'), method: 'post' }, [
          h('label', { htmlFor: 'quire-move-target' }, 'Move this page'),
          h('select', { id: 'quire-move-target', name: 'target' }, [
            h('option', { value: '' }, 'to the top level'),
            ...draft.places.map((place) =>
              h('option', { value: place.id }, `${'\u2003'.repeat(place.depth)}${place.title}`),
            ),
          ]),
          h('label.checkbox', [h('input', { type: 'radio', name: 'where', value: 'before' }), ' before it']),
          h('label.checkbox', [
            h('input', { type: 'radio', name: 'where', value: 'after', checked: true }),
            ' after it',
          ]),
          h('label.checkbox', [
            h('input', { type: 'radio', name: 'where', value: 'inside' }),
            ' inside it, at the end',
          ]),
          h('button', { type: 'submit' }, 'Move'),
        ]),
        h('form', { action: toolUrl(context, draft, 'delete'), method: 'post' }, [
          h('input', { type: 'hidden', name: 'base', value: draft.base }),
          h('button', { type: 'submit' }, 'Delete this page and its subpages'),
        ]),
      ]),
      // Filled as the writer types, by the editor's script; hidden without it.
      h('section#quire-live-preview.preview', { hidden: true, 'aria-label': 'Live preview', ariaLive: 'polite' }, [
        h('h2', 'Live preview'),
        h('p.live-status'),
        h('div.live-body'),
      ]),
      ...(view.preview !== undefined
        ? [h('section.preview', { 'aria-label': 'Preview' }, [h('h2', 'Preview'), trustedHtml(view.preview)])]
        : []),
    ],
    back: draft.editUrl,
    // The writing surface first: the editor's script finds it when it runs (both are deferred, so run in turn).
    scripts: [markdownEditorAddress(context), editorScriptAddress(context)].filter((src) => src !== undefined),
    scriptStyles: true,
  });
}

/** The page's emoji, icon and layout options, in its settings. */
function lookSettings(look: PageLook): ElementContent[] {
  return [
    h('input', { type: 'hidden', name: 'look', value: '1' }),
    h('div.look-row', [
      h('div', [
        h('label', { htmlFor: 'quire-emoji' }, 'Emoji'),
        h('input', { id: 'quire-emoji', name: 'emoji', maxLength: 50, value: look.emoji, size: 4 }),
      ]),
      h('div', [
        h('label', { htmlFor: 'quire-icon' }, 'Icon (its name, such as book-open)'),
        h('input', { id: 'quire-icon', name: 'icon', maxLength: 50, pattern: '[a-z0-9-]*', value: look.icon }),
      ]),
      h('div', [
        h('label', { htmlFor: 'quire-width' }, 'Width'),
        h('select', { id: 'quire-width', name: 'width' }, [
          h('option', { value: 'default', selected: look.width === 'default' }, 'Default'),
          h('option', { value: 'wide', selected: look.width === 'wide' }, 'Wide'),
        ]),
      ]),
    ]),
    h('fieldset.shown-parts', [
      h('legend', 'Show on the page'),
      ...SHOWN_PARTS.map((part) =>
        h('label.checkbox', [
          h('input', { type: 'checkbox', name: shownField(part), value: 'on', checked: look.shown[part] }),
          ` ${SHOWN_PART_LABELS[part]}`,
        ]),
      ),
    ]),
  ];
}

/**
 * The menu of blocks the editor's script inserts at the cursor: GitBook's
 * blocks as markdown (block-snippets.ts), a link to another page, an image or
 * a file. Hidden without the script, as the writer then types them.
 */
function blockMenu(draft: PageDraft): ElementContent {
  return h('div#quire-blocks.block-menu', { hidden: true, role: 'toolbar', ariaLabel: 'Insert a block' }, [
    ...BLOCK_SNIPPETS.map((snippet) =>
      h('button', { type: 'button', dataInsert: snippet.markdown, ariaControls: 'quire-markdown' }, snippet.label),
    ),
    h('label.file-pick', [
      'Image or file',
      h('input#quire-file-pick', { type: 'file', ariaLabel: 'Image or file to insert', multiple: true }),
    ]),
    ...(draft.linkable.length > 0
      ? [
          h('label', { htmlFor: 'quire-link-target' }, 'Link to'),
          h('select#quire-link-target', [
            ...draft.linkable.map((place) =>
              h('option', { value: `/pages/${place.id}` }, `${'\u2003'.repeat(place.depth)}${place.title}`),
            ),
          ]),
          h('button#quire-link-insert', { type: 'button', ariaControls: 'quire-markdown' }, 'Insert the link'),
        ]
      : []),
  ]);
}

/** The address of one of the page's tools in its change request, beside its editor's. */
function toolUrl(
  context: Context,
  draft: PageDraft,
  tool: 'new' | 'move' | 'delete' | 'preview' | 'autosave' | 'upload',
): string {
  const place = { organizationId: draft.space.organizationId, spaceId: draft.space.id };
  return changeRequestAddress(context, { ...place, changeRequest: draft.changeRequest.number }, tool, draft.page.id);
}

/**
 * The page as another writer saved it since: shown beside the writer's own,
 * which the editor holds merged with it where a merge could be made.
 */
function theirVersion(theirs: PageDraft, merged: EditorView['merged']): ElementContent[] {
  const how = !merged
    ? 'Nothing of yours was saved, and nothing is lost: your version is in the editor below, theirs is here. Merge them by hand and save again.'
    : merged.clashes === 0
      ? 'Nothing of yours was saved, and nothing is lost: the editor below holds your changes and theirs merged, as they touch different lines. Check it, then save again.'
      : `Nothing of yours was saved, and nothing is lost: the editor below holds your changes and theirs merged, but in ${merged.clashes === 1 ? 'one place' : `${merged.clashes} places`} you both changed the same lines. There both versions are kept, yours between <<<<<<< yours and =======, theirs between ======= and >>>>>>> theirs: keep what should stay, remove the marks, then save again.`;
  return [
    h('section.conflict', { 'aria-label': 'The page as saved since' }, [
      h('h2', 'Someone saved this page since you opened it'),
      h('p', how),
      h('p', [h('strong', 'Their title: '), theirs.page.title]),
      h('pre', h('code', theirs.markdown)),
    ]),
  ];
}
