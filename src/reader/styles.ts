import { createHash } from 'node:crypto';
import { BLOCK_CSS } from './block-styles.js';

/**
 * The reader's default theme: readable type, a sidebar, a table of contents,
 * light and dark, one column on small screens. A site's colours come in as
 * custom properties from its own stylesheet (theme-css.ts). Served from one
 * address with an ETag, so a browser fetches it once.
 */
export const READER_CSS = `
:root {
  color-scheme: light;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --surface: #f6f8fa; --code-bg: #f6f8fa;
  --primary: #346ddb; --link: var(--primary);
  --info: #787878; --success: #00a341; --warning: #b86e00; --danger: #d1242f;
  --hl-keyword: #cf222e; --hl-string: #0a3069; --hl-number: #0550ae; --hl-comment: #59636e; --hl-title: #8250df; --hl-attr: #953800;
  --mark-added: #1a7f37; --mark-changed: #9a6700;
  --radius: 8px; --font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace;
}
:root[data-theme="dark"] {
  color-scheme: dark;
  --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --surface: #151b23; --code-bg: #151b23;
  --primary: var(--primary-dark, #6d9eff); --link: var(--primary);
  --hl-keyword: #ff7b72; --hl-string: #a5d6ff; --hl-number: #79c0ff; --hl-comment: #9198a1; --hl-title: #d2a8ff; --hl-attr: #ffa657;
  --mark-added: #3fb950; --mark-changed: #d29922;
}
@media (prefers-color-scheme: dark) {
  :root[data-theme="auto"] {
    color-scheme: dark;
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --surface: #151b23; --code-bg: #151b23;
    --primary: var(--primary-dark, #6d9eff); --link: var(--primary);
    --hl-keyword: #ff7b72; --hl-string: #a5d6ff; --hl-number: #79c0ff; --hl-comment: #9198a1; --hl-title: #d2a8ff; --hl-attr: #ffa657;
    --mark-added: #3fb950; --mark-changed: #d29922;
  }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); font: 16px/1.65 var(--font); -webkit-text-size-adjust: 100%; }
body { margin: 0; }
a { color: var(--link); text-underline-offset: 2px; }
a:focus-visible, button:focus-visible, input:focus-visible, summary:focus-visible, label:focus-visible,
pre:focus-visible, .table-wrapper:focus-visible { outline: 2px solid var(--primary); outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; top: 0.5rem; background: var(--bg); padding: 0.5rem 1rem; z-index: 10; }
.skip-link:focus { left: 0.5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

.site-header { border-bottom: 1px solid var(--border); background: var(--bg); position: sticky; top: 0; z-index: 5; }
.header-bar { display: flex; align-items: center; gap: 1rem; max-width: 90rem; margin: 0 auto; padding: 0.6rem 1.25rem; flex-wrap: wrap; }
.site-title { margin-right: auto; display: flex; align-items: center; gap: 0.5rem; font-weight: 650; font-size: 1.1rem; color: var(--fg); text-decoration: none; }
.site-title img { height: 1.75rem; width: auto; }
.logo-dark { display: none; }
:root[data-theme="dark"] .logo-dark { display: inline; } :root[data-theme="dark"] .logo-light { display: none; }
.header-links { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; flex-wrap: wrap; }
.header-links a { color: var(--fg); text-decoration: none; }
.header-links a:hover { color: var(--primary); }
.search-form { display: flex; gap: 0.25rem; }
.search-form input { font: inherit; padding: 0.3rem 0.6rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); width: 14rem; max-width: 50vw; }
button, .button { font: inherit; font-size: 0.9rem; padding: 0.3rem 0.7rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); cursor: pointer; }
.theme-form { display: flex; gap: 0.25rem; }
.account-form { display: flex; gap: 0.5rem; align-items: center; } .account-name { color: var(--muted); font-size: 0.9rem; }
.change-mark { display: inline-block; font-size: 0.72rem; font-weight: 650; padding: 0 0.4rem; margin-left: 0.4rem; border-radius: 999px; border: 1px solid currentColor; vertical-align: middle; }
.change-added { color: var(--mark-added); } .change-changed { color: var(--mark-changed); }
.change-banner { border: 1px solid var(--border); border-left: 4px solid var(--warning); border-radius: var(--radius); padding: 0.5rem 1rem; margin-bottom: 1.5rem; background: var(--surface); }
.page-actions { margin: 0 0 1rem; }
.review-actions { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-end; margin: -0.5rem 0 1.5rem; }
.review-actions .review label { display: block; font-weight: 600; margin-bottom: 0.4rem; }
.review-actions input[type="email"] { width: 100%; min-width: 16rem; font: inherit; padding: 0.4rem 0.6rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); margin-bottom: 0.5rem; }
.review-actions textarea { width: 100%; min-width: 18rem; font: inherit; padding: 0.4rem 0.6rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); margin-bottom: 0.5rem; }
.editor label { display: block; font-weight: 600; margin: 0.75rem 0 0.4rem; }
.editor input, .editor textarea { width: 100%; font: inherit; padding: 0.5rem 0.7rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); }
.editor textarea { font-family: var(--mono); font-size: 0.9rem; line-height: 1.5; resize: vertical; }
.look-row { display: flex; flex-wrap: wrap; gap: 1rem; } .look-row > div { flex: 1 1 10rem; }
.editor .look-row select { width: 100%; font: inherit; padding: 0.45rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); }
.shown-parts { border: 0; padding: 0; margin: 0.75rem 0 0; display: flex; flex-wrap: wrap; gap: 0 1.25rem; }
.shown-parts legend { font-weight: 600; padding: 0; margin-bottom: 0.2rem; }
.editor .shown-parts .checkbox { display: inline-block; margin: 0.25rem 0; }
li[draggable="true"] > a { cursor: grab; }
li.drop-inside > a { outline: 2px dashed var(--primary); outline-offset: 2px; }
li.drop-after > a { box-shadow: 0 3px 0 var(--primary); }
li.drop-before > a { box-shadow: 0 -3px 0 var(--primary); }
.block-menu { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin: 0 0 0.5rem; }
.block-menu[hidden] { display: none; }
.editor .block-menu label { display: inline-flex; gap: 0.4rem; align-items: center; margin: 0 0 0 0.6rem; font-weight: 600; }
.block-menu button { font: inherit; font-size: 0.88rem; padding: 0.25rem 0.6rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); cursor: pointer; }
.block-menu button:hover, .block-menu button:focus-visible { border-color: var(--primary); }
.editor .block-menu input[type="file"] { width: auto; padding: 0.15rem; font-size: 0.85rem; }
.block-menu select { font: inherit; font-size: 0.88rem; padding: 0.2rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); max-width: 16rem; }
.page-settings { border: 1px solid var(--border); border-radius: var(--radius); padding: 0.25rem 1rem 0.75rem; margin: 1rem 0; }
.editor .checkbox, .page-tools .checkbox { display: block; font-weight: normal; margin: 0.5rem 0; }
.editor .checkbox input, .page-tools .checkbox input { width: auto; }
.page-tools { display: flex; flex-wrap: wrap; gap: 2rem; margin: 1.5rem 0; }
.page-tools label:not(.checkbox) { display: block; font-weight: 600; margin-bottom: 0.4rem; }
.page-tools select { font: inherit; padding: 0.3rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); }
.page-tools input:not([type]) { font: inherit; padding: 0.4rem 0.6rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); }
.preview, .conflict { border: 1px solid var(--border); border-radius: var(--radius); padding: 0.5rem 1rem; margin: 1.5rem 0; }
.conflict { border-left: 4px solid var(--warning); }
.conflict pre { white-space: pre-wrap; max-height: 24rem; overflow: auto; }
.page-comments { border-top: 1px solid var(--border); margin-top: 2rem; padding-top: 1rem; }
.comment-list { list-style: none; padding: 0; }
.comment-list li { border-left: 3px solid var(--border); padding: 0.25rem 0 0.25rem 0.75rem; margin-bottom: 1rem; }
.comment-meta { color: var(--muted); font-size: 0.85rem; margin: 0; }
.comment-body { white-space: pre-wrap; margin: 0.25rem 0 0; }
.comment-form label { display: block; font-weight: 600; margin-bottom: 0.4rem; }
.comment-form textarea { width: 100%; font: inherit; padding: 0.4rem 0.6rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); margin-bottom: 0.5rem; }
.comment-list li.resolved > .comment-body, .comment-list li.resolved > .comment-quote { color: var(--muted); }
.comment-mark { font-size: 0.8rem; font-weight: 600; }
.comment-quote { margin: 0.35rem 0; padding: 0.1rem 0.6rem; border-left: 3px solid var(--primary); color: var(--muted); font-size: 0.9rem; }
.comment-quote-pick { font-size: 0.9rem; color: var(--muted); } .comment-quote-pick[hidden] { display: none; }
.comment-quote-pick button, .resolve-form button, .reply-form button { font: inherit; font-size: 0.85rem; padding: 0.15rem 0.5rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); cursor: pointer; }
.reply-list { list-style: none; padding: 0 0 0 1rem; margin: 0.5rem 0; }
.reply-list li { border-left: 2px solid var(--border); margin-bottom: 0.5rem; }
.reply-form, .resolve-form { display: inline-flex; flex-wrap: wrap; gap: 0.4rem; align-items: flex-end; margin: 0.25rem 0.75rem 0 0; }
.reply-form label { font-size: 0.85rem; font-weight: 600; width: 100%; }
.reply-form textarea { font: inherit; min-width: 18rem; padding: 0.3rem 0.5rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); }
.page-changes { border-top: 1px solid var(--border); margin-top: 2rem; padding-top: 1rem; }
.diff-blocks, .diff-lines { padding-left: 1.25rem; } .diff-block { margin-bottom: 0.75rem; } .diff-lines { font-family: var(--mono); font-size: 0.88rem; }
.page-changes ins { text-decoration: underline; color: var(--mark-added); } .page-changes del { text-decoration: line-through; color: var(--danger); }
.diff-label { font-weight: 650; } .diff-edited { font-weight: 650; margin: 0; } .diff-unchanged { color: var(--muted); }
.card-list { list-style: none; padding: 0; display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); }
.card-list a { display: block; padding: 0.8rem 1rem; border: 1px solid var(--border); border-radius: var(--radius); text-decoration: none; }
.card-list .meta { display: block; color: var(--muted); font-size: 0.85rem; }
.sign-in { max-width: 28rem; margin: 4rem auto; padding: 0 1.25rem; }
.sign-in label { display: block; font-weight: 600; margin-bottom: 0.4rem; }
.sign-in input { width: 100%; font: inherit; padding: 0.5rem 0.7rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--fg); margin-bottom: 1rem; }
.sign-in .error { color: var(--danger); }
.theme-form button[aria-pressed="true"] { border-color: var(--primary); color: var(--primary); }
.sections { max-width: 90rem; margin: 0 auto; padding: 0 1.25rem; display: flex; gap: 1.25rem; overflow-x: auto; }
.sections a { display: inline-block; padding: 0.4rem 0; color: var(--muted); text-decoration: none; border-bottom: 2px solid transparent; white-space: nowrap; }
.sections a[aria-current="page"] { color: var(--primary); border-bottom-color: var(--primary); }
.sections .group-title { color: var(--muted); font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; align-self: center; }
.announcement { padding: 0.5rem 1.25rem; text-align: center; background: var(--surface); border-bottom: 1px solid var(--border); }

.layout { display: grid; grid-template-columns: 17rem minmax(0, 1fr) 14rem; gap: 2.5rem; max-width: 90rem; margin: 0 auto; padding: 0 1.25rem; }
.sidebar { position: sticky; top: 4.5rem; align-self: start; max-height: calc(100vh - 5rem); overflow-y: auto; padding: 1.5rem 0; font-size: 0.95rem; }
.sidebar ul { list-style: none; margin: 0; padding: 0; }
.sidebar ul ul { padding-left: 0.9rem; border-left: 1px solid var(--border); margin-left: 0.4rem; }
.sidebar a { display: block; padding: 0.25rem 0.5rem; border-radius: 6px; color: var(--fg); text-decoration: none; }
.sidebar a:hover { background: var(--surface); }
.sidebar a[aria-current="page"] { color: var(--primary); background: var(--surface); font-weight: 600; }
.sidebar .group { margin-top: 1.1rem; padding: 0 0.5rem; font-size: 0.78rem; font-weight: 650; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); }
.space-switcher { margin-bottom: 1rem; }
.space-switcher summary { cursor: pointer; padding: 0.4rem 0.5rem; border: 1px solid var(--border); border-radius: var(--radius); }
.space-switcher ul { margin-top: 0.25rem; }
.content { padding: 2rem 0 4rem; min-width: 0; }
.content h1 { font-size: 2.1rem; line-height: 1.2; margin: 0 0 0.5rem; }
.page-description { color: var(--muted); font-size: 1.1rem; margin-top: 0; }
.content h2 { font-size: 1.5rem; margin-top: 2.2rem; } .content h3 { font-size: 1.25rem; margin-top: 1.8rem; } .content h4 { font-size: 1.05rem; }
.content h2 .anchor, .content h3 .anchor, .content h4 .anchor { margin-left: 0.4rem; color: var(--muted); text-decoration: none; opacity: 0; }
.content h2:hover .anchor, .content h3:hover .anchor, .content h4:hover .anchor, .anchor:focus { opacity: 1; }
.content img { max-width: 100%; height: auto; border-radius: var(--radius); }
.content figure { margin: 1.5rem 0; } .content figcaption { color: var(--muted); font-size: 0.9rem; text-align: center; }
.content blockquote { margin: 1rem 0; padding: 0 1rem; border-left: 3px solid var(--border); color: var(--muted); }
.content code { font-family: var(--mono); font-size: 0.88em; background: var(--code-bg); padding: 0.1em 0.35em; border-radius: 4px; }
.content pre { background: var(--code-bg); border: 1px solid var(--border); border-radius: var(--radius); padding: 0.9rem 1rem; overflow-x: auto; line-height: 1.5; }
.content pre code { background: none; padding: 0; font-size: 0.875rem; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-type { color: var(--hl-keyword); }
.hljs-string, .hljs-regexp, .hljs-meta .hljs-string { color: var(--hl-string); }
.hljs-number, .hljs-literal, .hljs-variable, .hljs-symbol { color: var(--hl-number); }
.hljs-comment, .hljs-quote { color: var(--hl-comment); font-style: italic; }
.hljs-title, .hljs-section, .hljs-function .hljs-title { color: var(--hl-title); }
.hljs-attr, .hljs-attribute, .hljs-property, .hljs-params, .hljs-meta { color: var(--hl-attr); }
.table-wrapper { overflow-x: auto; margin: 1rem 0; }
.content table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
.content th, .content td { border: 1px solid var(--border); padding: 0.45rem 0.7rem; text-align: left; vertical-align: top; }
.content th { background: var(--surface); }
.content .align-center { text-align: center; } .content .align-right { text-align: right; }
.hint { border-left: 4px solid var(--info); background: var(--surface); border-radius: var(--radius); padding: 0.1rem 1rem; margin: 1rem 0; }
.hint-warning { border-left-color: var(--warning); } .hint-danger { border-left-color: var(--danger); } .hint-success { border-left-color: var(--success); }
.task-list { list-style: none; padding-left: 0.5rem; } .task input { margin-right: 0.5rem; }
.tabs { display: flex; flex-wrap: wrap; border: 1px solid var(--border); border-radius: var(--radius); margin: 1rem 0; }
.tab-radio { position: absolute; opacity: 0; width: 1px; height: 1px; }
.tab-label { order: 1; padding: 0.5rem 1rem; cursor: pointer; color: var(--muted); border-bottom: 2px solid transparent; }
.tab-panel { order: 2; width: 100%; display: none; padding: 0 1rem; border-top: 1px solid var(--border); }
.tab-radio:checked + .tab-label { color: var(--primary); border-bottom-color: var(--primary); }
.tab-radio:checked + .tab-label + .tab-panel { display: block; }
.tab-radio:focus-visible + .tab-label { outline: 2px solid var(--primary); outline-offset: -2px; }
details.expandable { border: 1px solid var(--border); border-radius: var(--radius); margin: 1rem 0; padding: 0 1rem; }
details.expandable summary { cursor: pointer; padding: 0.6rem 0; font-weight: 600; }
.file a { font-weight: 600; } .file-size { color: var(--muted); }
.pagination { display: flex; justify-content: space-between; gap: 1rem; margin-top: 3rem; border-top: 1px solid var(--border); padding-top: 1.5rem; }
.pagination a { display: block; border: 1px solid var(--border); border-radius: var(--radius); padding: 0.6rem 1rem; text-decoration: none; max-width: 48%; }
.pagination .label { display: block; font-size: 0.8rem; color: var(--muted); }
.pagination .next { margin-left: auto; text-align: right; }
.toc { position: sticky; top: 4.5rem; align-self: start; padding: 2rem 0; font-size: 0.875rem; max-height: calc(100vh - 5rem); overflow-y: auto; }
.toc h2 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); margin: 0 0 0.5rem; }
.toc ul { list-style: none; margin: 0; padding: 0; } .toc li { margin: 0.3rem 0; } .toc .depth-2 { padding-left: 0.8rem; } .toc .depth-3 { padding-left: 1.6rem; }
.toc a { color: var(--muted); text-decoration: none; } .toc a:hover { color: var(--primary); }
.search-results { list-style: none; padding: 0; } .search-results li { margin: 1.2rem 0; }
.search-results .where { color: var(--muted); font-size: 0.85rem; }
.site-footer { border-top: 1px solid var(--border); margin-top: 2rem; padding: 2rem 1.25rem; color: var(--muted); font-size: 0.9rem; }
.footer-inner { max-width: 90rem; margin: 0 auto; display: flex; flex-wrap: wrap; gap: 2.5rem; }
.footer-inner h2 { font-size: 0.9rem; color: var(--fg); margin: 0 0 0.5rem; }
.footer-inner ul { list-style: none; margin: 0; padding: 0; } .footer-inner a { color: var(--muted); }
.message { max-width: 40rem; margin: 4rem auto; padding: 0 1.25rem; }
${BLOCK_CSS}
@media (max-width: 72rem) { .layout { grid-template-columns: 15rem minmax(0, 1fr); } .toc { display: none; } }
@media (max-width: 48rem) {
  .layout { grid-template-columns: minmax(0, 1fr); gap: 0; }
  .sidebar { position: static; max-height: none; border-bottom: 1px solid var(--border); padding: 1rem 0; }
  .search-form { width: 100%; } .search-form input { flex: 1; width: auto; max-width: none; }
  .site-header { position: static; }
}
@media print { .site-header, .sidebar, .toc, .pagination, .site-footer { display: none; } .layout { display: block; } }
`;

/** The stylesheet's ETag: it changes only with a new version of the service. */
export const READER_CSS_ETAG = `"${createHash('sha256').update(READER_CSS).digest('base64url').slice(0, 22)}"`;
