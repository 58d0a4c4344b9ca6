/**
 * YAML as GitBook's Git Sync writes a page's frontmatter: js-yaml's `dump`
 * with its defaults, the style its files show. Block mappings indented two
 * spaces; a string plain where it can be, in single quotes where plain would
 * read as another type, in double quotes with escapes where it holds a
 * character YAML does not print (a no-break space is `\_`), folded (`>-`)
 * where a line runs past 80 columns less its indentation, literal (`|`)
 * where it holds line breaks otherwise. The `yaml` package folds long lines
 * as plain multi-line scalars, which reads the same but is not these bytes.
 *
 * Only what a frontmatter holds is written: mappings of strings, numbers,
 * booleans and null.
 */

export type YamlScalar = string | number | boolean | null;
export interface YamlMapping {
  [key: string]: YamlScalar | YamlMapping;
}

const INDENT = 2;
const LINE_WIDTH = 80;

/** Plain scalars YAML 1.1 read as booleans, which js-yaml quotes for older readers. */
const OLD_BOOLEANS = new Set([
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'on',
  'On',
  'ON',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'off',
  'Off',
  'OFF',
]);
const SEXAGESIMAL = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;

/** Plain scalars the default schema reads as something other than a string: null, booleans, numbers, timestamps, merge keys. */
const OTHER_TYPES = [
  /^(?:~|null|Null|NULL)$/,
  /^(?:true|True|TRUE|false|False|FALSE)$/,
  /^[-+]?(?:0b[01_]*[01]|0x[0-9a-fA-F_]*[0-9a-fA-F]|0o[0-7_]*[0-7]|[0-9_]*[0-9])$/,
  /^(?:[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?$/,
  /^<<$/,
];

const readsAsOtherType = (text: string) => OTHER_TYPES.some((pattern) => pattern.test(text) && !text.endsWith('_'));

/** Characters YAML prints as they are: the rest need a double-quoted escape. */
function isPrintable(code: number): boolean {
  return (
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa1 && code <= 0xd7ff && code !== 0x2028 && code !== 0x2029) ||
    (code >= 0xe000 && code <= 0xfffd && code !== 0xfeff) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

const isWhite = (code: number) => code === 0x20 || code === 0x09;
const isCharOrWhite = (code: number) => isPrintable(code) && code !== 0xfeff;

/** What may start a plain scalar: no indicator (`- ? : , [ ] { } # & * ! | = > ' " % @ \``), no space. */
const NOT_FIRST = new Set([...'-?:,[]{}#&*!|=>\'"%@`'].map((char) => char.codePointAt(0)!));
const isPlainFirst = (code: number) => isPrintable(code) && code !== 0xfeff && !isWhite(code) && !NOT_FIRST.has(code);
const isPlainLast = (code: number) => !isWhite(code) && code !== 0x3a;

const COLON = 0x3a;
const SHARP = 0x23;

/** Whether `code` after `previous` keeps a block scalar plain: no `: ` and no ` #`. */
function isPlainNext(code: number, previous: number | undefined): boolean {
  const isChar = isCharOrWhite(code) && !isWhite(code);
  if (previous === COLON) return isChar;
  if (code === SHARP) return previous !== undefined && isCharOrWhite(previous) && !isWhite(previous);
  return isCharOrWhite(code);
}

type Style = 'plain' | 'single' | 'double' | 'literal' | 'folded';

function styleOf(text: string, width: number, singleLine: boolean): Style {
  const codes = [...text].map((char) => char.codePointAt(0)!);
  let plain = isPlainFirst(codes[0]!) && isPlainLast(codes.at(-1)!);
  let breaks = false;
  let foldable = false;
  let lineStart = 0;
  // Widths are counted in UTF-16 units, as js-yaml counts them.
  let at = 0;
  let previous: number | undefined;
  for (const code of codes) {
    if (code === 0x0a && !singleLine) {
      breaks = true;
      foldable ||= at - lineStart > width && text[lineStart] !== ' ';
      lineStart = at + 1;
    } else if (!isPrintable(code)) {
      return 'double';
    }
    plain &&= isPlainNext(code, previous);
    previous = code;
    at += code >= 0x10000 ? 2 : 1;
  }
  if (singleLine) return plain && !readsAsOtherType(text) ? 'plain' : 'single';
  foldable ||= at - lineStart > width && text[lineStart] !== ' ';
  if (!breaks && !foldable) return plain && !readsAsOtherType(text) ? 'plain' : 'single';
  return foldable ? 'folded' : 'literal';
}

/**
 * A line folded at spaces into lines of at most `width` where it can be:
 * each break the longest line under the width, else the shortest over it;
 * never before a space, which would read back as more indented.
 */
function foldLine(line: string, width: number): string {
  if (line === '' || line[0] === ' ') return line;
  const breaks = / [^ ]/g;
  let start = 0;
  let last = 0;
  let out = '';
  for (let match = breaks.exec(line); match; match = breaks.exec(line)) {
    const next = match.index;
    if (next - start > width) {
      const end = last > start ? last : next;
      out += `\n${line.slice(start, end)}`;
      start = end + 1;
    }
    last = next;
  }
  out += '\n';
  if (line.length - start > width && last > start) out += `${line.slice(start, last)}\n${line.slice(last + 1)}`;
  else out += line.slice(start);
  return out.slice(1);
}

/** A text as a folded block's content: each line folded, and a blank line kept for each line break between two lines. */
function foldText(text: string, width: number): string {
  const firstBreak = text.indexOf('\n');
  const firstEnd = firstBreak === -1 ? text.length : firstBreak;
  let out = foldLine(text.slice(0, firstEnd), width);
  // A line break next to a more indented line (or at the start) is kept as it is, not doubled.
  let previousIndented = text[0] === '\n' || text[0] === ' ';
  const lines = /(\n+)([^\n]*)/g;
  lines.lastIndex = firstEnd;
  for (let match = lines.exec(text); match; match = lines.exec(text)) {
    const newlines = match[1]!;
    const line = match[2]!;
    const indented = line[0] === ' ';
    out += newlines + (!previousIndented && !indented && line !== '' ? '\n' : '') + foldLine(line, width);
    previousIndented = indented;
  }
  return out;
}

/** A block scalar's header: an indentation indicator where the text starts with a space, and its chomping. */
function blockHeader(text: string): string {
  const indicator = /^\n* /.test(text) ? String(INDENT) : '';
  const clip = text.endsWith('\n');
  const keep = clip && (text.endsWith('\n\n') || text === '\n');
  return `${indicator}${keep ? '+' : clip ? '' : '-'}\n`;
}

/** Each line that holds anything indented by `spaces`, without the final line break. */
function indentBlock(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  const indented = text
    .split(/(?<=\n)/)
    .map((line) => (line === '' || line === '\n' ? line : pad + line))
    .join('');
  return indented.endsWith('\n') ? indented.slice(0, -1) : indented;
}

const ESCAPES: Record<number, string> = {
  0x00: '\\0',
  0x07: '\\a',
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0b: '\\v',
  0x0c: '\\f',
  0x0d: '\\r',
  0x1b: '\\e',
  0x22: '\\"',
  0x5c: '\\\\',
  0x85: '\\N',
  0xa0: '\\_',
  0x2028: '\\L',
  0x2029: '\\P',
};

function hexEscape(code: number): string {
  const [mark, digits] = code <= 0xff ? ['x', 2] : code <= 0xffff ? ['u', 4] : ['U', 8];
  return `\\${mark}${code.toString(16).toUpperCase().padStart(digits, '0')}`;
}

function doubleQuoted(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += ESCAPES[code] ?? (isPrintable(code) ? char : hexEscape(code));
  }
  return `"${out}"`;
}

/** A string at a nesting level (1 for the top mapping's values); a key is on one line. */
function stringScalar(text: string, level: number, isKey: boolean): string {
  if (text === '') return "''";
  if (OLD_BOOLEANS.has(text) || SEXAGESIMAL.test(text)) return `'${text}'`;
  const indent = INDENT * Math.max(1, level);
  // Deeper values get narrower lines, down to 40 columns.
  const width = Math.max(Math.min(LINE_WIDTH, 40), LINE_WIDTH - indent);
  switch (styleOf(text, width, isKey)) {
    case 'plain':
      return text;
    case 'single':
      return `'${text.replaceAll("'", "''")}'`;
    case 'double':
      return doubleQuoted(text);
    case 'literal':
      return `|${blockHeader(text)}${indentBlock(text, indent)}`;
    case 'folded':
      return `>${blockHeader(text)}${indentBlock(foldText(text, width), indent)}`;
  }
}

function numberScalar(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (value === Infinity) return '.inf';
  if (value === -Infinity) return '-.inf';
  if (Object.is(value, -0)) return '-0.0';
  const text = value.toString(10);
  // An exponent without a point would read back as a string.
  return Number.isInteger(value) || !/^[-+]?[0-9]+e/.test(text) ? text : text.replace('e', '.e');
}

function scalar(value: YamlScalar, level: number): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return numberScalar(value);
  return stringScalar(value, level, false);
}

function mappingLines(mapping: YamlMapping, level: number): string[] {
  const pad = ' '.repeat(INDENT * level);
  return Object.entries(mapping).flatMap(([key, value]) => {
    const name = `${pad}${stringScalar(key, level, true)}:`;
    if (value === null || typeof value !== 'object') return [`${name} ${scalar(value, level + 1)}`];
    if (Object.keys(value).length === 0) return [`${name} {}`];
    return [name, ...mappingLines(value, level + 1)];
  });
}

/** The mapping as YAML, each line ending in a line break; `{}` for an empty one. */
export function dumpYaml(mapping: YamlMapping): string {
  const lines = mappingLines(mapping, 0);
  return lines.length === 0 ? '{}\n' : `${lines.join('\n')}\n`;
}
