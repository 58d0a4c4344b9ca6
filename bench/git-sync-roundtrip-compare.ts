/**
 * The comparison of a Git Sync tree with what the service writes back for
 * it: which files are byte-identical, which differ and how (a unified-diff
 * excerpt, and the causes of its changes), which are missing or extra.
 * Pure: no files, no service.
 */

/** Why a file came back otherwise, from where its changes lie. */
export type Cause =
  /** A page's frontmatter block (between its `---` lines) differs, or one is there on one side only. */
  | 'frontmatter'
  /** The `# Title` line under the frontmatter differs. */
  | 'title'
  /** The same lines, but with other line endings (CRLF read as LF). */
  | 'line-endings'
  /** Only blank lines or spaces at the ends of lines differ. */
  | 'whitespace'
  /** Lines of the content that differ in more than spaces. */
  | 'content'
  /** The table of contents. */
  | 'summary'
  /** `.gitbook.yaml`. */
  | 'config'
  /** A file that is not text, or not markdown: its bytes differ. */
  | 'bytes';

export interface FileDifference {
  path: string;
  /** Each cause once, in the order of the `Cause` type. */
  causes: Cause[];
  /** A unified diff of the first changes, a few lines of context around each. */
  excerpt: string;
}

export interface TreeComparison {
  identical: string[];
  differing: FileDifference[];
  /** In the input, not written back. */
  missing: string[];
  /** Written back, not in the input. */
  extra: string[];
}

const CAUSE_ORDER: readonly Cause[] = [
  'frontmatter',
  'title',
  'line-endings',
  'whitespace',
  'content',
  'summary',
  'config',
  'bytes',
];

/** A hunk's lines of each side, 0-based and end-exclusive. */
export interface Hunk {
  from: [number, number];
  to: [number, number];
}

/** Past this many cells the middle of two files is one change rather than a line-by-line diff. */
const MAX_DIFF_CELLS = 4_000_000;
const CONTEXT = 2;
/** Lines of an excerpt, at most. */
const EXCERPT_LINES = 24;
/** Characters of a line shown in an excerpt. */
const LINE_WIDTH = 160;

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The changed line ranges of two texts, by a longest common subsequence of
 * their lines (the common start and end taken out first).
 */
export function lineHunks(a: readonly string[], b: readonly string[]): Hunk[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0 || n * m > MAX_DIFF_CELLS) return [{ from: [start, endA], to: [start, endB] }];

  // lengths[i][j]: the common subsequence of a[start+i..endA) and b[start+j..endB).
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[start + i] === b[start + j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);

  const hunks: Hunk[] = [];
  let open: Hunk | undefined;
  let i = 0;
  let j = 0;
  const close = () => {
    if (open) hunks.push(open);
    open = undefined;
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      close();
      i++;
      j++;
    } else {
      open ??= { from: [start + i, start + i], to: [start + j, start + j] };
      if (j < m && (i === n || lengths[i * width + j + 1]! >= lengths[(i + 1) * width + j]!)) open.to[1] = start + ++j;
      else open.from[1] = start + ++i;
    }
  }
  close();
  return hunks;
}

/** The column where two lines first differ. */
function firstDifference(a: string, b: string): number {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  return at;
}

/** A long line as a window of it from a little before `column`, `…` where it is cut. */
function windowOf(line: string, column: number): string {
  if (line.length <= LINE_WIDTH) return line;
  const start = Math.max(0, Math.min(column - 40, line.length - LINE_WIDTH));
  return `${start > 0 ? '…' : ''}${line.slice(start, start + LINE_WIDTH)}${start + LINE_WIDTH < line.length ? '…' : ''}`;
}

/** Hunks whose context lines would touch, as one unified-diff hunk each. */
function hunkGroups(hunks: readonly Hunk[]): Hunk[][] {
  const groups: Hunk[][] = [];
  for (const hunk of hunks) {
    const last = groups.at(-1)?.at(-1);
    if (last && hunk.from[0] - last.from[1] <= 2 * CONTEXT) groups.at(-1)!.push(hunk);
    else groups.push([hunk]);
  }
  return groups;
}

/**
 * A unified diff of the hunks, context around each, cut at EXCERPT_LINES
 * lines; a line over LINE_WIDTH characters is shown from where its hunk's
 * first removed and added lines part.
 */
export function unifiedExcerpt(
  path: string,
  a: readonly string[],
  b: readonly string[],
  hunks: readonly Hunk[],
): string {
  const out = [`--- ${path} (input)`, `+++ ${path} (written back)`];
  for (const group of hunkGroups(hunks)) {
    const first = group[0]!;
    const last = group.at(-1)!;
    const before = Math.min(CONTEXT, first.from[0]);
    const after = Math.min(CONTEXT, a.length - last.from[1]);
    const fromStart = first.from[0] - before;
    const toStart = first.to[0] - before;
    const fromCount = last.from[1] + after - fromStart;
    const toCount = last.to[1] + after - toStart;
    out.push(`@@ -${fromStart + 1},${fromCount} +${toStart + 1},${toCount} @@`);
    let at = fromStart;
    for (const hunk of group) {
      const column =
        hunk.from[0] < hunk.from[1] && hunk.to[0] < hunk.to[1] ? firstDifference(a[hunk.from[0]]!, b[hunk.to[0]]!) : 0;
      for (; at < hunk.from[0]; at++) out.push(` ${windowOf(a[at]!, 0)}`);
      for (let line = hunk.from[0]; line < hunk.from[1]; line++) out.push(`-${windowOf(a[line]!, column)}`);
      for (let line = hunk.to[0]; line < hunk.to[1]; line++) out.push(`+${windowOf(b[line]!, column)}`);
      at = hunk.from[1];
    }
    for (; at < last.from[1] + after; at++) out.push(` ${windowOf(a[at]!, 0)}`);
    if (out.length >= EXCERPT_LINES) break;
  }
  if (out.length <= EXCERPT_LINES) return out.join('\n');
  return [...out.slice(0, EXCERPT_LINES), `… (${out.length - EXCERPT_LINES} more lines)`].join('\n');
}

/** The lines of a page's frontmatter block (both `---` lines included), and of its `# Title` line: [start, end). */
function pageRegions(lines: readonly string[]): { frontmatter: [number, number]; title: [number, number] } {
  let end = 0;
  if (lines[0] === '---') {
    const close = lines.indexOf('---', 1);
    if (close !== -1) end = close + 1;
  }
  let title = end;
  while (title < lines.length && lines[title]!.trim() === '') title++;
  const isTitle = lines[title]?.startsWith('# ') ?? false;
  return { frontmatter: [0, end], title: isTitle ? [title, title + 1] : [title, title] };
}

const overlaps = ([start, end]: [number, number], [from, to]: [number, number]) =>
  start < end && (from === to ? from >= start && from < end : from < end && to > start);

/** What a change of a page's lines is: in the frontmatter, in the title line, or in the content. */
function causeOfHunk(a: readonly string[], b: readonly string[], hunk: Hunk): Cause {
  const regionsA = pageRegions(a);
  const regionsB = pageRegions(b);
  if (overlaps(regionsA.frontmatter, hunk.from) || overlaps(regionsB.frontmatter, hunk.to)) return 'frontmatter';
  if (overlaps(regionsA.title, hunk.from) || overlaps(regionsB.title, hunk.to)) return 'title';
  const squeeze = (lines: readonly string[], [from, to]: [number, number]) =>
    lines
      .slice(from, to)
      .map((line) => line.trimEnd())
      .filter((line) => line !== '')
      .join('\n');
  return squeeze(a, hunk.from) === squeeze(b, hunk.to) ? 'whitespace' : 'content';
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function textOf(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** How one file differs, with the causes of its changes. */
export function fileDifference(path: string, input: Uint8Array, output: Uint8Array): FileDifference {
  const a = textOf(input);
  const b = textOf(output);
  if (a === undefined || b === undefined) {
    return {
      path,
      causes: ['bytes'],
      excerpt: `binary file: ${input.byteLength} bytes in, ${output.byteLength} bytes written back`,
    };
  }
  const linesA = a.split('\n');
  const linesB = b.split('\n');
  const hunks = lineHunks(linesA, linesB);
  const excerpt = unifiedExcerpt(path, linesA, linesB, hunks);
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === '.gitbook.yaml') return { path, causes: ['config'], excerpt };
  if (name === 'SUMMARY.md') return { path, causes: ['summary'], excerpt };
  if (!/\.md$/i.test(path) || path.includes('.gitbook/assets/')) return { path, causes: ['bytes'], excerpt };
  if (a.includes('\r\n') && a.replaceAll('\r\n', '\n') === b) return { path, causes: ['line-endings'], excerpt };
  const found = new Set(hunks.map((hunk) => causeOfHunk(linesA, linesB, hunk)));
  return { path, causes: CAUSE_ORDER.filter((cause) => found.has(cause)), excerpt };
}

/** The input tree against the tree written back, by path. */
export function compareTrees(
  input: ReadonlyMap<string, Uint8Array>,
  output: ReadonlyMap<string, Uint8Array>,
): TreeComparison {
  const comparison: TreeComparison = { identical: [], differing: [], missing: [], extra: [] };
  for (const path of [...input.keys()].sort(byCodeUnit)) {
    const written = output.get(path);
    if (written === undefined) comparison.missing.push(path);
    else if (sameBytes(input.get(path)!, written)) comparison.identical.push(path);
    else comparison.differing.push(fileDifference(path, input.get(path)!, written));
  }
  comparison.extra = [...output.keys()].filter((path) => !input.has(path)).sort(byCodeUnit);
  return comparison;
}

export interface CauseGroup {
  cause: Cause;
  /** The files with a change of this cause; a file with several causes is in several groups. */
  files: FileDifference[];
}

/** The differing files by cause, the cause with the most files first. */
export function byCause(differing: readonly FileDifference[]): CauseGroup[] {
  return CAUSE_ORDER.map((cause) => ({ cause, files: differing.filter((file) => file.causes.includes(cause)) }))
    .filter((group) => group.files.length > 0)
    .sort((x, y) => y.files.length - x.files.length || CAUSE_ORDER.indexOf(x.cause) - CAUSE_ORDER.indexOf(y.cause));
}
