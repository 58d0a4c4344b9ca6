import { createHash } from 'node:crypto';
import type { Context } from '../context.js';

/**
 * The editor's script, which only adds to a form that works without it: as
 * the writer types, the page is previewed beside the form by the reader's
 * own renderer (the server's, through the preview address the form names),
 * and the draft is saved into the change request when the writer pauses, as
 * Save saves it (a page another writer saved since stops it: Save then shows
 * both versions), so a closed tab loses nothing but the last two seconds.
 * On a change request's page, text selected names the block a new comment is
 * about, and its pages are moved by dragging them in the table of contents. Served from the app's own origin, as its policy allows no other script.
 */
export const EDITOR_JS = `'use strict';
(() => {
  const form = document.querySelector('form.editor[data-preview]');
  if (!form) return;
  const text = form.querySelector('textarea[name="markdown"]');
  const base = form.querySelector('input[name="base"]');
  const live = document.getElementById('quire-live-preview');
  const status = document.getElementById('quire-autosave');
  if (!text || !base || !live || !status) return;

  // The writing surface: CodeMirror where its bundle loaded first (markdown-editor.client.mjs), else the field itself.
  const surface = window.quireMarkdownEditor || {
    element: text,
    selected: () => text.value.slice(text.selectionStart, text.selectionEnd),
    // Replaces the selection with the text; a block goes on lines of its own.
    insert: (markdown, block) => {
      const start = text.selectionStart;
      const before = text.value.slice(0, start);
      const lead = !block || before === '' || before.endsWith('\\n\\n') ? '' : before.endsWith('\\n') ? '\\n' : '\\n\\n';
      text.setRangeText(lead + markdown + (block ? '\\n\\n' : ''), start, text.selectionEnd, 'end');
      text.focus();
      text.dispatchEvent(new Event('input', { bubbles: true }));
    },
  };
  live.hidden = false;
  status.hidden = false;

  // The live preview, as the writer types.
  let previewTimer;
  let previews = 0;
  const render = async () => {
    const mine = ++previews;
    try {
      const answer = await fetch(form.dataset.preview, {
        method: 'POST',
        body: new URLSearchParams({ markdown: text.value }),
        credentials: 'same-origin',
      });
      if (mine !== previews) return;
      const html = await answer.text();
      // The server's renderer sanitizes what it renders; a refusal comes back as a sentence.
      live.querySelector('.live-body').innerHTML = answer.ok ? html : '';
      live.querySelector('.live-status').textContent = answer.ok ? '' : html;
    } catch {
      live.querySelector('.live-status').textContent = 'No preview: the service did not answer.';
    }
  };

  // The draft, saved into the change request when the writer pauses, as Save saves it.
  let saveTimer;
  let saving = false;
  let dirty = false;
  let stopped = false;
  const autosave = async () => {
    if (stopped || saving || !dirty) return;
    saving = true;
    dirty = false;
    const fields = new URLSearchParams(new FormData(form));
    fields.delete('action');
    try {
      const answer = await fetch(form.dataset.autosave, { method: 'POST', body: fields, credentials: 'same-origin' });
      const result = await answer.json().catch(() => ({ saved: false, message: 'Not saved: the service refused the draft.' }));
      if (result.saved) {
        base.value = result.base;
        const from = form.querySelector('input[name="from"]');
        if (from && result.from) from.value = result.from;
        status.textContent = 'Draft saved in the change request at ' + new Date(result.at).toLocaleTimeString() + '.';
      } else {
        status.textContent = result.message;
        // A page another writer saved is merged: Save shows both versions, and the two merged.
        stopped = answer.status === 409;
        // A draft the service refused is tried again once the writer changes it, not before.
        dirty = !stopped && answer.status >= 500;
      }
    } catch {
      dirty = true;
      status.textContent = 'Not saved yet: the service did not answer. Trying again.';
    } finally {
      saving = false;
      if (dirty && !stopped) schedule();
    }
  };
  const schedule = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(autosave, 2000);
  };

  // Images and files pasted or dropped into the content: stored in the change request, and named where the cursor is.
  let uploads = Promise.resolve();
  const upload = async (file) => {
    if (file.size > 1048576) {
      status.textContent = (file.name || 'The file') + ' is over 1 MiB: not added.';
      return;
    }
    const base64 = await new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).split(',')[1] || '');
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
    const type = file.type || 'application/octet-stream';
    const name = file.name || 'pasted.' + (type.split('/')[1] || 'bin').replace(/[^a-z0-9]/gi, '');
    status.textContent = 'Adding ' + name + '…';
    const answer = await fetch(form.dataset.upload, {
      method: 'POST',
      body: new URLSearchParams({ name, contentType: type, base64 }),
      credentials: 'same-origin',
    });
    const result = await answer.json().catch(() => ({ message: 'Not added: the service refused the file.' }));
    if (!answer.ok) {
      status.textContent = result.message;
      return;
    }
    status.textContent = name + ' is added to the change request.';
    surface.insert(result.markdown + '\\n', false);
  };
  const queueUpload = (file) => {
    uploads = uploads.then(() => upload(file)).catch(() => {
      status.textContent = 'Not added: the service did not answer.';
    });
  };
  const take = (files, event) => {
    if (!files || files.length === 0) return;
    event.preventDefault();
    for (const file of files) queueUpload(file);
  };
  if (surface.element === text) {
    text.addEventListener('paste', (event) => take(event.clipboardData && event.clipboardData.files, event));
    text.addEventListener('dragover', (event) => {
      if (event.dataTransfer && [...event.dataTransfer.types].includes('Files')) event.preventDefault();
    });
    text.addEventListener('drop', (event) => take(event.dataTransfer && event.dataTransfer.files, event));
  } else {
    // CodeMirror hands over the files pasted or dropped into it, and inserts nothing of its own for them.
    surface.onFiles = (files) => {
      for (const file of files) queueUpload(file);
      return true;
    };
  }
  status.textContent = 'Paste or drop images and files into the content to add them (1 MiB each).';

  // The block menu: GitBook's blocks on lines of their own, a link to a page, an image or a file, at the cursor.
  const menu = document.getElementById('quire-blocks');
  if (menu) {
    menu.hidden = false;
    menu.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-insert]');
      if (button) surface.insert(button.dataset.insert, true);
    });
    const pick = document.getElementById('quire-file-pick');
    pick.addEventListener('change', () => {
      for (const file of pick.files) queueUpload(file);
      pick.value = '';
    });
    const linkTarget = document.getElementById('quire-link-target');
    const linkInsert = document.getElementById('quire-link-insert');
    if (linkTarget && linkInsert) {
      linkInsert.addEventListener('click', () => {
        const option = linkTarget.selectedOptions[0];
        if (!option) return;
        const selected = surface.selected();
        const label = (selected || option.textContent.trim()).replace(/[\\\\[\\]]/g, '\\\\$&');
        surface.insert('[' + label + '](' + option.value + ')', false);
      });
    }
  }

  form.addEventListener('input', (event) => {
    dirty = true;
    schedule();
    if (event.target === text) {
      clearTimeout(previewTimer);
      previewTimer = setTimeout(render, 400);
    }
  });
  void render();
})();

// Comments on a selection: text selected in the page names the block the comment is about.
(() => {
  const form = document.querySelector('form.comment-form');
  const article = document.querySelector('main article');
  if (!form || !article) return;
  const quote = form.querySelector('input[name="quote"]');
  const shown = document.getElementById('quire-comment-quote');
  if (!quote || !shown) return;
  const words = document.createElement('q');
  const whole = document.createElement('button');
  whole.type = 'button';
  whole.textContent = 'Comment on the whole page';
  shown.append('About the text selected: ', words, ' ', whole);
  document.addEventListener('selectionchange', () => {
    const selection = document.getSelection();
    if (!selection || selection.isCollapsed || selection.rangeCount === 0) return;
    if (!article.contains(selection.getRangeAt(0).commonAncestorContainer)) return;
    const text = selection.toString().trim().slice(0, 2000);
    if (!text) return;
    quote.value = text;
    words.textContent = text.length > 120 ? text.slice(0, 119) + '…' : text;
    shown.hidden = false;
  });
  whole.addEventListener('click', () => {
    quote.value = '';
    shown.hidden = true;
  });
})();

// Pages moved by dragging them in a change request's table of contents: dropped on a page, inside it at its
// end; on its upper or lower edge, before or after it. The move is posted as the editor's Move form posts it, so the answer is
// the moved page's editor, saying what happened. The keyboard moves pages with that form.
(() => {
  const items = [...document.querySelectorAll('li[data-page]')];
  if (!items.some((item) => item.dataset.move)) return;
  let dragged;
  // The entry's upper third puts the page before it, its lower third after it, the middle inside it.
  const placeOf = (item, event) => {
    const box = item.firstElementChild.getBoundingClientRect();
    if (event.clientY < box.top + box.height / 3) return 'before';
    return event.clientY > box.bottom - box.height / 3 ? 'after' : 'inside';
  };
  const clear = () => {
    for (const item of items) item.classList.remove('drop-before', 'drop-inside', 'drop-after');
  };
  const droppable = (item, event) =>
    dragged && dragged !== item && !dragged.contains(item) && event.target.closest('li[data-page]') === item;
  for (const item of items) {
    if (item.dataset.move) {
      item.addEventListener('dragstart', (event) => {
        event.stopPropagation();
        dragged = item;
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData('text/plain', item.firstElementChild.textContent);
      });
      item.addEventListener('dragend', () => {
        dragged = undefined;
        clear();
      });
    }
    item.addEventListener('dragover', (event) => {
      if (!droppable(item, event)) return;
      event.preventDefault();
      clear();
      item.classList.add('drop-' + placeOf(item, event));
    });
    item.addEventListener('drop', (event) => {
      if (!droppable(item, event)) return;
      event.preventDefault();
      const move = document.createElement('form');
      move.method = 'post';
      move.action = dragged.dataset.move;
      move.hidden = true;
      for (const [name, value] of [['target', item.dataset.page], ['where', placeOf(item, event)]]) {
        const field = document.createElement('input');
        field.type = 'hidden';
        field.name = name;
        field.value = value;
        move.append(field);
      }
      document.body.append(move);
      move.submit();
    });
  }
})();
`;

/** The editor's script's address, named by its content so that a browser keeps it until it changes. */
export function editorScriptAddress(context: Context): string {
  return `${context.urls.app('~', 'editor.js')}?v=${EDITOR_JS_ETAG.slice(1, 13)}`;
}

export const EDITOR_JS_ETAG = `"${createHash('sha256').update(EDITOR_JS).digest('base64url').slice(0, 22)}"`;
