/** The steps of 5% a column's share is rounded to (the renderer writes `share-N`: the reader allows no inline style). */
const COLUMN_SHARES = Array.from({ length: 20 }, (_, index) => (index + 1) * 5)
  .map((share) => `.share-${share} { flex-grow: ${share}; }`)
  .join(' ');

/** GitBook's palette of text colours as [light, dark]: each reads at 4.5:1 or more on the theme's page and surfaces. */
const PALETTE: Readonly<Record<string, readonly [string, string]>> = {
  green: ['#1a7f37', '#3fb950'],
  blue: ['#0969da', '#4493f8'],
  red: ['#cf222e', '#f85149'],
  orange: ['#bc4c00', '#db6d28'],
  yellow: ['#9a6700', '#d29922'],
  purple: ['#8250df', '#ab7df8'],
};
/**
 * The site's own colours a text may take (`$info` …): darker in the light
 * theme and lighter in the dark one than the hint borders they also colour,
 * so that even the defaults read as text. `$primary` is already the links'.
 */
const SITE_COLORS = ['info', 'success', 'warning', 'danger'];

const textColors = (theme: 0 | 1) =>
  [
    ...Object.entries(PALETTE).map(([name, colors]) => `--text-${name}: ${colors[theme]};`),
    ...SITE_COLORS.map(
      (name) => `--text-${name}: color-mix(in srgb, var(--${name}) ${theme === 0 ? '75%, black' : '70%, white'});`,
    ),
  ].join(' ');

/**
 * Coloured text and backgrounds (GitBook's colour mark, as `text-red`,
 * `bg-primary` classes): a background is a tint of its colour over whatever
 * the text sits on, a little stronger on dark pages, and the text keeps the
 * theme's colour on it.
 */
const COLOR_MARKS = [
  `:root { ${textColors(0)} --text-primary: var(--primary); --color-tint: 12%; }`,
  `:root[data-theme="dark"] { ${textColors(1)} --color-tint: 18%; }`,
  `@media (prefers-color-scheme: dark) { :root[data-theme="auto"] { ${textColors(1)} --color-tint: 18%; } }`,
  ...[...Object.keys(PALETTE), 'primary', ...SITE_COLORS].map(
    (name) =>
      `.text-${name} { color: var(--text-${name}); } ` +
      `.bg-${name} { background-color: color-mix(in srgb, var(--text-${name}) var(--color-tint), transparent); border-radius: 3px; }`,
  ),
].join('\n');

/**
 * How the reader shows GitBook's blocks beyond text: figures and their dark
 * variants, coloured text, code blocks' title bars, numbers and folds, cards,
 * columns, steppers, updates, link cards, prompts, buttons and formulas.
 * Layouts that sit side by side follow the width of the content column (a
 * container query), so they stack in a narrow column on any screen.
 */
export const BLOCK_CSS = `
.content { container-type: inline-size; }
.images { display: flex; flex-wrap: wrap; gap: 1rem; justify-content: center; margin: 1.5rem 0; }
.images-left { justify-content: flex-start; } .images-right { justify-content: flex-end; }
.images figure { margin: 0; min-width: 0; max-width: 100%; }
.images.with-frame figure { padding: 0.75rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
.images.full-width figure, .images.full-width img { width: 100%; }
.image-dark { display: none; }
:root[data-theme="dark"] .image-dark { display: inline; } :root[data-theme="dark"] .image-light { display: none; }
@media (prefers-color-scheme: dark) {
  :root[data-theme="auto"] .image-dark { display: inline; } :root[data-theme="auto"] .image-light { display: none; }
}
.content p.align-center, .content h2.align-center, .content h3.align-center, .content h4.align-center { text-align: center; }
.content p.align-right, .content h2.align-right, .content h3.align-right, .content h4.align-right { text-align: right; }
.content kbd { font-family: var(--mono); font-size: 0.85em; padding: 0.05em 0.4em; border: 1px solid var(--border); border-bottom-width: 2px; border-radius: 4px; }
.annotation { text-decoration: underline dotted; cursor: help; }
${COLOR_MARKS}
.content a.button { display: inline-block; text-decoration: none; margin: 0.25rem 0.25rem 0.25rem 0; }
.button-primary { background: var(--primary); border-color: var(--primary); color: var(--bg); }
.button-small { font-size: 0.8rem; padding: 0.15rem 0.5rem; } .button-large { font-size: 1rem; padding: 0.5rem 1rem; }

.code-block { display: flex; flex-direction: column; margin: 1rem 0; }
.code-block pre { margin: 0; }
.code-title { font-family: var(--mono); font-size: 0.85rem; color: var(--muted); background: var(--surface); border: 1px solid var(--border); border-bottom: 0; border-radius: var(--radius) var(--radius) 0 0; padding: 0.4rem 1rem; }
.code-title ~ pre { border-top-left-radius: 0; border-top-right-radius: 0; }
.content pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
.line-numbers code { counter-reset: line; }
.line-numbers .line::before { counter-increment: line; content: counter(line); display: inline-block; width: 2.5em; margin-right: 1em; text-align: right; color: var(--muted); user-select: none; }
.code-fold { order: 2; }
.code-fold summary { cursor: pointer; color: var(--link); font-size: 0.9rem; padding: 0.3rem 0; }
.code-fold:not([open]) ~ pre .folded { display: none; }
.code-fold[open] .fold-more, .code-fold:not([open]) .fold-less { display: none; }
.prompt { border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); padding: 0 1rem; margin: 1rem 0; }
.prompt-description { font-weight: 600; }
.prompt-text summary { cursor: pointer; color: var(--link); padding-bottom: 0.5rem; }
.prompt pre { white-space: pre-wrap; background: var(--bg); }

.cards { list-style: none; padding: 0; margin: 1.5rem 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); }
.cards-large { grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr)); }
.cards-scroll { grid-auto-flow: column; grid-template-columns: none; grid-auto-columns: minmax(13rem, 16rem); overflow-x: auto; padding-bottom: 0.5rem; }
.cards-large.cards-scroll { grid-auto-columns: minmax(18rem, 22rem); }
.card { border: 1px solid var(--border); border-radius: var(--radius); overflow: hidden; background: var(--bg); display: flex; flex-direction: column; }
.card-link { display: flex; flex-direction: column; flex: 1; color: inherit; text-decoration: none; }
.card:hover { border-color: var(--primary); }
.content .card-cover img { display: block; width: 100%; height: auto; aspect-ratio: 16 / 9; object-fit: cover; border-radius: 0; }
.card-body { padding: 0.75rem 1rem; }
.card-body p, .card-field > ul, .card-field > ol { margin: 0.25rem 0; }
.card-title { font-weight: 650; }
.card-label { display: block; font-size: 0.8rem; color: var(--muted); }
.tag { display: inline-block; font-size: 0.75rem; padding: 0 0.5rem; margin-right: 0.25rem; border: 1px solid var(--border); border-radius: 999px; color: var(--fg); }

.columns { display: flex; gap: 1.5rem; margin: 1rem 0; }
.column { flex: 1 1 0; min-width: 0; }
${COLUMN_SHARES}
.valign-middle { align-self: center; } .valign-bottom { align-self: flex-end; }
@container (max-width: 36rem) { .columns { flex-direction: column; } .column { flex-basis: auto; } }

.stepper { list-style: none; counter-reset: step; padding: 0; margin: 1.5rem 0; }
.step { position: relative; counter-increment: step; padding: 0 0 1rem 2.75rem; }
.step::before { content: counter(step); position: absolute; left: 0; top: 0.1rem; width: 1.75rem; height: 1.75rem; border-radius: 50%; border: 1px solid var(--border); background: var(--surface); color: var(--fg); font-size: 0.85rem; font-weight: 650; line-height: 1.65rem; text-align: center; }
.step::after { content: ""; position: absolute; left: 0.875rem; top: 2.1rem; bottom: 0.2rem; border-left: 1px solid var(--border); }
.step:last-child::after { display: none; }

.updates { list-style: none; padding: 0; margin: 1.5rem 0 1.5rem 0.4rem; border-left: 2px solid var(--border); }
.update { position: relative; padding: 0 0 1.5rem 1.5rem; }
.update::before { content: ""; position: absolute; left: -0.45rem; top: 0.45rem; width: 0.8rem; height: 0.8rem; border-radius: 50%; background: var(--primary); }
.update-meta { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.update-date { font-weight: 650; }
.update-tags { display: flex; flex-wrap: wrap; gap: 0.25rem; list-style: none; margin: 0; padding: 0; }

.link-card { display: flex; flex-direction: column; gap: 0.15rem; padding: 0.75rem 1rem; margin: 1rem 0; border: 1px solid var(--border); border-radius: var(--radius); color: var(--fg); text-decoration: none; }
a.link-card:hover { border-color: var(--primary); }
a.link-card .link-card-title { color: var(--link); }
.link-card-title { font-weight: 600; overflow-wrap: anywhere; }
.link-card-url { font-size: 0.85rem; color: var(--muted); overflow-wrap: anywhere; }
.http-method { font-family: var(--mono); font-size: 0.75rem; font-weight: 700; padding: 0.05rem 0.4rem; border: 1px solid currentColor; border-radius: 4px; }
.method-get { color: var(--mark-added); } .method-post { color: var(--primary); } .method-delete { color: var(--danger); }
.method-put, .method-patch { color: var(--mark-changed); }
.conditional { border: 1px dashed var(--border); border-radius: var(--radius); padding: 0 1rem; margin: 1rem 0; }
.conditional-label { font-size: 0.85rem; color: var(--muted); }
.math-block { overflow-x: auto; margin: 1rem 0; text-align: center; }
.content code.math { white-space: pre-wrap; }
.rating { letter-spacing: 0.1em; }
.column > :first-child, .step > :first-child, .update-body > :first-child, .tab-panel > :first-child { margin-top: 0; }
.column > :last-child, .step > :last-child, .update-body > :last-child { margin-bottom: 0; }
`;
