import type { Element, ElementContent, Properties } from 'hast';
import { h } from 'hastscript';
import type { Html } from 'mdast';
import { leaf, textNode } from './build.js';
import { attribute, elementsOnly, isElement } from './html-content.js';
import { htmlOf } from './html-write.js';
import { inlineText } from './inline-to-markdown.js';
import { asObject, childObjects, field, optionalString, type At, type JsonObject } from './read-json.js';
import type { DocumentBlockCode, DocumentBlockCodeLine } from './types.js';

/**
 * Code as GitBook writes it when a fenced block cannot say it, because some
 * of its lines are highlighted: `<pre class="language-yaml"
 * data-title="openapi.yaml" data-overflow="wrap" data-line-numbers
 * data-full-width="false"><code class="lang-yaml">…<strong>a highlighted
 * line\n</strong>…</code></pre>`. A highlighted line is the code line's
 * `highlighted`; the `<pre>`'s attributes are the code block's data.
 */

interface Run {
  text: string;
  highlighted: boolean;
}

/** The text of the code, each run marked by whether a `<strong>` (or `<b>`, `<mark>`) holds it. A loop: spans can nest deep. */
function runsOf(children: ElementContent[]): Run[] {
  const runs: Run[] = [];
  const pending = children.map((node) => ({ node, highlighted: false })).reverse();
  while (pending.length > 0) {
    const { node, highlighted } = pending.pop()!;
    if (node.type === 'text') runs.push({ text: node.value, highlighted });
    else if (node.type === 'element') {
      const inner = highlighted || isElement(node, 'strong', 'b', 'mark');
      if (isElement(node, 'br')) runs.push({ text: '\n', highlighted });
      for (let i = node.children.length - 1; i >= 0; i -= 1)
        pending.push({ node: node.children[i]!, highlighted: inner });
    }
  }
  return runs;
}

function line(text: string, highlighted: boolean): DocumentBlockCodeLine {
  return {
    object: 'block',
    type: 'code-line',
    data: highlighted ? { highlighted: true } : {},
    nodes: [textNode([leaf(text)])],
  };
}

/** Lines of the runs; a line is highlighted when any of its text is. */
function linesOf(runs: Run[]): DocumentBlockCodeLine[] {
  const lines: DocumentBlockCodeLine[] = [];
  let text = '';
  let highlighted = false;
  for (const run of runs) {
    const parts = run.text.replaceAll('\r\n', '\n').split('\n');
    parts.forEach((part, index) => {
      if (index > 0) {
        lines.push(line(text, highlighted));
        text = '';
        highlighted = false;
      }
      text += part;
      if (part !== '' && run.highlighted) highlighted = true;
    });
  }
  // The code's last line ends with a line break, which opens no line of its own.
  if (text !== '' || lines.length === 0) lines.push(line(text, highlighted));
  return lines;
}

const SYNTAX_CLASS = /^(?:language|lang)-(.+)$/;

function syntaxOf(...elements: Element[]): string | undefined {
  for (const element of elements) {
    for (const name of attribute(element, 'className')?.split(' ') ?? []) {
      const match = SYNTAX_CLASS.exec(name);
      if (match) return match[1];
    }
  }
  return undefined;
}

const booleanOf = (value: string | undefined) => (value === undefined ? undefined : value !== 'false');

/** A `<pre>` holding a `<code>` (or text) as a code block; null when it holds anything else. */
export function codeFromPre(pre: Element): DocumentBlockCode | null {
  const elements = elementsOnly(pre.children);
  const code = elements?.length === 1 && isElement(elements[0], 'code') ? elements[0] : null;
  const content = code ? code.children : pre.children;
  if (!code && pre.children.some((child) => child.type === 'element' && !isElement(child, 'strong', 'b', 'span', 'br')))
    return null;
  const syntax = syntaxOf(pre, ...(code ? [code] : []));
  const title = attribute(pre, 'dataTitle');
  const overflow = attribute(pre, 'dataOverflow');
  const lineNumbers = booleanOf(attribute(pre, 'dataLineNumbers'));
  const fullWidth = booleanOf(attribute(pre, 'dataFullWidth'));
  const expandable = booleanOf(attribute(pre, 'dataExpandable'));
  return {
    object: 'block',
    type: 'code',
    data: {
      ...(syntax ? { syntax } : {}),
      ...(title ? { title } : {}),
      ...(overflow === 'wrap' || overflow === 'scroll' ? { overflow } : {}),
      ...(lineNumbers !== undefined ? { lineNumbers } : {}),
      ...(fullWidth !== undefined ? { fullWidth } : {}),
      ...(expandable !== undefined ? { expandable } : {}),
    },
    nodes: linesOf(runsOf(content)),
  };
}

/** Whether any line of the code (JSON, as sent) is highlighted. */
function hasHighlightedLine(lines: Array<[JsonObject, At]>): boolean {
  return lines.some(([line]) => {
    const data = line.data;
    return typeof data === 'object' && data !== null && (data as JsonObject).highlighted === true;
  });
}

/** The `<pre>` attributes of the code's data, in the order GitBook writes them; `true` is a bare attribute. */
function preProperties(data: JsonObject, syntax: string | undefined): Properties {
  const properties: Properties = {};
  if (syntax) properties.className = [`language-${syntax}`];
  if (typeof data.title === 'string' && data.title !== '') properties.dataTitle = data.title;
  if (data.overflow === 'wrap' || data.overflow === 'scroll') properties.dataOverflow = data.overflow;
  if (typeof data.lineNumbers === 'boolean') properties.dataLineNumbers = data.lineNumbers || 'false';
  if (typeof data.fullWidth === 'boolean') properties.dataFullWidth = String(data.fullWidth);
  if (typeof data.expandable === 'boolean') properties.dataExpandable = String(data.expandable);
  return properties;
}

/**
 * Code with a highlighted line as GitBook writes it, a `<pre>` whose
 * highlighted lines are in `<strong>`; null for code a fenced block can say.
 */
export function highlightedCodeHtml(node: JsonObject, at: At): Html | null {
  const lines = childObjects(node, at, 'nodes');
  if (!hasHighlightedLine(lines)) return null;
  const data = node.data === undefined ? {} : asObject(node.data, field(at, 'data'));
  const syntax = optionalString(data.syntax, field(field(at, 'data'), 'syntax'));
  const content: ElementContent[] = lines.map(([line, lineAt]) => {
    const text: ElementContent = { type: 'text', value: `${inlineText(line, lineAt)}\n` };
    const highlighted =
      typeof line.data === 'object' && line.data !== null && (line.data as JsonObject).highlighted === true;
    return highlighted ? h('strong', [text]) : text;
  });
  const code = h('code', syntax ? { className: [`lang-${syntax}`] } : {}, content);
  return { type: 'html', value: htmlOf(h('pre', preProperties(data, syntax), [code])) };
}
