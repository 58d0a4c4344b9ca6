// The editor's writing surface in the browser: CodeMirror 6 with markdown's
// syntax over the form's markdown field, which it keeps equal to what is
// written, so that the form posts, previews and autosaves as without it.
// Bundled by markdown-editor-build.ts; the editor's script (editor-script.ts)
// runs after it and inserts blocks and files through `window.quireMarkdownEditor`.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdownLanguage } from '@codemirror/lang-markdown';
import { HighlightStyle, LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { EditorSelection, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, keymap } from '@codemirror/view';
import { tags } from '@lezer/highlight';

// CodeMirror adds its styles in a <style> element: the page's policy allows it with the nonce this script holds.
const nonce = document.currentScript && document.currentScript.nonce;
// Markdown's marks in the app's own colours (reader.css), light and dark alike.
const markdownMarks = HighlightStyle.define([
  { tag: tags.heading, fontWeight: '700' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: [tags.link, tags.url], color: 'var(--link)' },
  { tag: [tags.processingInstruction, tags.meta, tags.quote, tags.contentSeparator], color: 'var(--muted)' },
  { tag: tags.monospace, color: 'var(--hl-string)' },
]);
// The surface in the app's look: its field's border, colours and monospace type, as tall as the field was.
const appLook = EditorView.theme({
  '&': {
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius)',
    background: 'var(--surface)',
    color: 'var(--fg)',
    fontSize: '0.9rem',
  },
  '&.cm-focused': { outline: '2px solid var(--primary)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5', minHeight: '24rem', maxHeight: '70vh' },
  '.cm-content': { padding: '0.5rem 0.2rem', caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': {
    background: 'color-mix(in srgb, var(--primary) 25%, transparent)',
  },
});

const field = document.querySelector('form.editor textarea[name="markdown"]');
const label = field && document.querySelector(`label[for="${field.id}"]`);
if (field && label) {
  label.id ||= `${field.id}-label`;
  /** Files pasted or dropped, handed to the editor's script; false when it takes none. */
  const takeFiles = (files) => Boolean(files && files.length > 0 && surface.onFiles && surface.onFiles(files));
  const view = new EditorView({
    state: EditorState.create({
      doc: field.value,
      extensions: [
        ...(nonce ? [EditorView.cspNonce.of(nonce)] : []),
        history(),
        drawSelection(),
        EditorView.lineWrapping,
        // Markdown with GitHub's extensions, without the HTML, CSS and JavaScript languages
        // markdown() embeds (four fifths of the bundle): their blocks show as plain text.
        new LanguageSupport(markdownLanguage),
        syntaxHighlighting(markdownMarks),
        appLook,
        // No Tab binding: Tab leaves the editor, as it leaves every field of the form.
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of({ 'aria-labelledby': label.id, spellcheck: 'true' }),
        EditorView.domEventHandlers({
          paste: (event) => takeFiles(event.clipboardData && event.clipboardData.files) && event.preventDefault() !== 0,
          drop: (event) => takeFiles(event.dataTransfer && event.dataTransfer.files) && event.preventDefault() !== 0,
        }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          field.value = update.state.doc.toString();
          field.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      ],
    }),
  });
  view.dom.classList.add('markdown-editor');
  field.before(view.dom);
  field.hidden = true;

  const surface = {
    element: view.contentDOM,
    onFiles: undefined,
    /** The text selected, if any. */
    selected() {
      const { from, to } = view.state.selection.main;
      return view.state.sliceDoc(from, to);
    },
    /** Replaces the selection with `text`; a block goes on lines of its own. The cursor ends after it. */
    insert(text, block) {
      const { from, to } = view.state.selection.main;
      const before = view.state.sliceDoc(0, from);
      const lead = !block || before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
      const inserted = lead + text + (block ? '\n\n' : '');
      view.dispatch({
        changes: { from, to, insert: inserted },
        selection: EditorSelection.cursor(from + inserted.length),
        scrollIntoView: true,
      });
      view.focus();
    },
  };
  window.quireMarkdownEditor = surface;
}
