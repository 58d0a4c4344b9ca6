/**
 * Regular expressions that read user input must run in time linear in it
 * (issue 11: no request may stall the service). Each test runs the exported
 * function that holds an expression on an input of 100 KB or more built to
 * make that expression backtrack, and expects its answer: a linear expression
 * gives it in milliseconds, a super-linear one hangs for tens of seconds on
 * these, which the hang guard (support/hang-guard.ts) turns into a failure.
 * The lint's regexp rules are the other check, and the schema patterns Ajv
 * runs on requests are checked both ways too. How long the expressions take is
 * the bench's to measure, not a test's.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resolveLink, type BatchRefs } from '../src/change-requests/changes/links.js';
import { slugify } from '../src/core/slug.js';
import { withoutTrailingLineBreaks, leaf, textNode } from '../src/document/build.js';
import { evaluateExpressions, splitLeadingHeading } from '../src/document/index.js';
import { readPage } from '../src/conversions/worker.js';
import { sniffContentType } from '../src/content/files/image.js';
import { ContentTree } from '../src/content/tree.js';
import { isEmoji } from '../src/core/emoji.js';
import { DeferredCompilations } from '../src/core/deferred-compilation.js';
import { createValidatorCompiler } from '../src/core/validation.js';
import { useTestApp } from './support/app.js';
import { finishes } from './support/hang-guard.js';

const t = useTestApp();

const SIZE = 100_000;

/** `unit` repeated to at least SIZE characters, between `prefix` and `suffix`. */
function attack(prefix: string, unit: string, suffix = ''): string {
  return prefix + unit.repeat(Math.ceil(SIZE / unit.length)) + suffix;
}

describe('regular expressions on user input run in linear time', () => {
  it('page links: trailing slashes of a Git Sync path (links.ts pagePathOf)', () => {
    const tree = new ContentTree(new Map(), new Map());
    const refs: BatchRefs = { pages: new Map(), files: new Map() };
    for (const url of [
      attack('/pages/a', '/', 'a'),
      attack('/pages/', '/a'),
      attack('/pages/a', '/README', '!'),
      attack('./a', '/', 'b.md'),
    ]) {
      const value = finishes(() => resolveLink(url, tree, refs, 'page'), url.slice(0, 20));
      expect(value).toBeUndefined();
    }
  });

  it('slugs: dashes at the ends of a title (slug.ts)', () => {
    for (const title of [attack('a', '-', 'a'), attack('a', ' -', '!'), attack('', 'e\u0301')]) {
      const value = finishes(() => slugify(title));
      expect(value).toMatch(/^[\p{L}\p{N}-]{1,100}$/u);
    }
  });

  it('documents: line breaks closing a paragraph (build.ts withoutTrailingLineBreaks)', () => {
    const text = attack('', '\n', 'x\n');
    const value = finishes(() => withoutTrailingLineBreaks([textNode([leaf(text)])]));
    expect(value).toEqual([textNode([leaf(text.slice(0, -1))])]);
  });

  it('variables: `{{ space.vars.NAME }}` over a whole page (evaluate.ts EXPRESSION)', () => {
    const vars = { space: { a: 'A' }, page: {} };
    for (const markdown of [
      attack('{{ space.vars.', 'a'),
      attack('{{', ' ', 'x'),
      attack('', '{{ ', '}'),
      attack('', '{{ page.vars.a '),
      attack('{{ space.vars.a', ' ', '}'),
      attack('', '{{\t\n space.vars.a-b_c \n}'),
      // Git Sync's form of an expression.
      attack('<code class="expression">space.vars.', 'a'),
      attack('', '<code class="expression"> space.vars.a '),
      attack('<code class="expression">space.vars.a', ' ', '</code'),
    ]) {
      const value = finishes(() => evaluateExpressions(markdown, vars), markdown.slice(0, 20));
      expect(value).toBe(markdown);
    }
    expect(evaluateExpressions('{{space.vars.a}} {{ space.vars.a }}', vars)).toBe('A A');
    expect(evaluateExpressions('<code class="expression">space.vars.a</code>', vars)).toBe('A');
  });

  it('titles: whether a page may open with a heading, read without parsing (leading-heading.ts mayStartWithHeading)', () => {
    for (const markdown of [
      // Leading blank lines, then a line of blanks that ends without one.
      attack(' \n'.repeat(1000), ' \t', 'x'),
      // A first block of many lines, each with blanks that do not make it end.
      attack('text', '\n \t \t x'),
      // Lines of `=` that are not an underline.
      attack('text', '\n ==========x'),
      attack('text', '\r\n   =\t\t\t\t\t\t\r'),
      // Whitespace that is neither a blank nor a line break, after every line break.
      attack('text', '\n\v'),
      attack('text', '\n \v='),
    ]) {
      const value = finishes(() => splitLeadingHeading(markdown), JSON.stringify(markdown.slice(0, 20)));
      expect(value).toBeNull();
    }
  });

  it('pages: blank lines before the content (worker.ts readPage)', () => {
    for (const markdown of [attack(' \n'.repeat(25_000), ' \t', 'x'), attack('', '\t\r\n', ' x')]) {
      const value = finishes(() => readPage(markdown));
      expect(value.ok).toBe(true);
    }
  });

  it('files: the extension of a file name (image.ts sniffContentType)', () => {
    const bytes = Buffer.from('plain text');
    for (const name of [attack('.', 'a', '!'), attack('', '.a', '.!'), attack('', '.')]) {
      const value = finishes(() => sniffContentType(bytes, name));
      expect(value).toBe('application/octet-stream');
    }
  });

  it('emoji: code points in hex (emoji.ts)', () => {
    const value = finishes(() => isEmoji(attack('1f600', '-1f600a', '!')));
    expect(value).toBe(false);
    expect(isEmoji('1f468-200d-1f4bb')).toBe(true);
  });

  // The expression runs inside a request, where the hang guard cannot reach it: a super-linear
  // version holds the event loop for tens of seconds a header, and the test timeout ends the test.
  it('tokens: the Authorization header (auth.ts BEARER)', async () => {
    await t.app.inject({ method: 'GET', url: '/v1/user' });
    for (const authorization of [
      attack('Bearer ', 'a', ' x'),
      attack('Bearer', ' ', '\t'),
      attack('Bearer a', ' ', 'x'),
      attack('Bearer a', ' \t'),
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/user', headers: { authorization } });
      expect(res.statusCode).toBe(401);
    }
  });
});

/** Every `pattern` in the request and response schemas the service publishes (and validates with). */
async function schemaPatterns(): Promise<string[]> {
  await t.app.ready();
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'pattern' && typeof value === 'string') found.add(value);
        else walk(value);
      }
    }
  };
  walk(t.app.swagger());
  return [...found].sort();
}

interface LintFinding {
  code: string;
  message: string;
  labels: Array<{ span: { line: number } }>;
}

/** What `npm run lint` finds in `source`, linted as a file of its own with the project's rules (.oxlintrc.json). */
async function lintFindings(source: string): Promise<Array<{ line: number; rule: string; message: string }>> {
  const folder = await mkdtemp(join(tmpdir(), 'quire-patterns-'));
  try {
    const file = join(folder, 'schema-patterns.ts');
    await writeFile(file, source);
    const oxlint = join(process.cwd(), 'node_modules/oxlint/bin/oxlint');
    const args = [oxlint, '-c', join(process.cwd(), '.oxlintrc.json'), '--format=json', file];
    // oxlint exits with 1 when it finds something; its report is on stdout either way.
    const stdout = await promisify(execFile)(process.execPath, args).then(
      (done) => done.stdout,
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    const report = JSON.parse(stdout) as { diagnostics: LintFinding[] };
    return report.diagnostics.map((finding) => ({
      line: finding.labels[0]?.span.line ?? 0,
      rule: finding.code,
      message: finding.message,
    }));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('schema patterns', () => {
  it('pass the same regexp rules as the lint, as Ajv compiles them (flag u)', async () => {
    const patterns = await schemaPatterns();
    expect(patterns.length).toBeGreaterThan(5);
    // The first line is a known quadratic pattern (the invitation e-mail before issue 11): proof that the check bites.
    const known = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
    const source = [known, ...patterns].map((pattern) => `new RegExp(${JSON.stringify(pattern)}, 'u');`).join('\n');
    const findings = await lintFindings(source);
    expect(findings.some((finding) => finding.line === 1 && finding.rule.startsWith('regexp('))).toBe(true);
    const flagged = findings
      .filter((finding) => finding.line > 1)
      .map((finding) => `${patterns[finding.line - 2]}: ${finding.rule} ${finding.message}`);
    expect(flagged).toEqual([]);
  });

  it('finish on long strings built to make them backtrack, even without the length bounds beside them', async () => {
    const patterns = await schemaPatterns();
    const compile = createValidatorCompiler([], new DeferredCompilations());
    const prefixes = ['', 'a', 'a@', 'a@a', 'http://', 'https://a/', '1'];
    const units = ['a', '.', '-', ' ', '\t', '/', '@', '0', '=', '+', 'a.', 'a-', '.a', 'a@', '/a', 'a:', '%'];
    // Each refused by some of the classes these patterns use (`\s`, `@`, `/`, letters), so that they must backtrack.
    const suffixes = ['\u0000', ' ', '@', '/'];
    for (const pattern of patterns) {
      const validate = compile({ schema: { type: 'string', pattern }, method: 'POST', url: '/', httpPart: 'body' }) as (
        value: unknown,
      ) => boolean;
      // One guard for the pattern's 476 strings, which take milliseconds together: each guard starts a
      // watchdog thread, and one per string cost twice the matching.
      let tried = '';
      try {
        finishes(() => {
          for (const prefix of prefixes) {
            for (const unit of units) {
              for (const suffix of suffixes) {
                tried = JSON.stringify(`${prefix}${unit}...${suffix}`);
                validate(attack(prefix, unit, suffix));
              }
            }
          }
        }, pattern);
      } catch (error) {
        throw new Error(`${pattern} on ${tried}: ${(error as Error).message}`);
      }
    }
  });
});
