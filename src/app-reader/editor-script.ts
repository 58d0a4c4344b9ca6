import { createHash } from 'node:crypto';

/**
 * The editor's script, which only adds to a form that works without it: as
 * the writer types, the page is previewed beside the form by the reader's
 * own renderer (the server's, through the preview address the form names).
 * Served from the app's own origin, as its policy allows no other script.
 */
export const EDITOR_JS = `'use strict';
(() => {
  const form = document.querySelector('form.editor[data-preview]');
  if (!form) return;
  const text = form.querySelector('textarea[name="markdown"]');
  const live = document.getElementById('quire-live-preview');
  if (!text || !live) return;
  live.hidden = false;
  let timer;
  let sent = 0;
  const render = async () => {
    const mine = ++sent;
    const body = new URLSearchParams({ markdown: text.value });
    try {
      const answer = await fetch(form.dataset.preview, { method: 'POST', body, credentials: 'same-origin' });
      if (mine !== sent) return;
      const html = await answer.text();
      // The server's renderer sanitizes what it renders; a refusal comes back as a sentence.
      live.querySelector('.live-body').innerHTML = answer.ok ? html : '';
      live.querySelector('.live-status').textContent = answer.ok ? '' : html;
    } catch {
      live.querySelector('.live-status').textContent = 'No preview: the service did not answer.';
    }
  };
  text.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(render, 400);
  });
  void render();
})();
`;

export const EDITOR_JS_ETAG = `"${createHash('sha256').update(EDITOR_JS).digest('base64url').slice(0, 22)}"`;
