import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Licences a package the service ships with may have: permissive ones, which
 * ask for a notice at most. CC0-1.0 gives up every right; Python-2.0 (the PSF
 * licence of argparse, which js-yaml ports) is permissive and GPL-compatible;
 * MIT-0 (nodemailer's) is MIT without even the notice; Zlib (pako's, with
 * MIT: its port of zlib) asks only that the notice stay and changes be marked.
 */
const ALLOWED = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'Python-2.0',
  'Zlib',
]);

/**
 * Packages whose lockfile entry has no `license`, each with the one its own
 * package.json gives and why the lockfile misses it. Keyed by version, so an
 * upgrade is looked at again.
 */
const DECLARED_ELSEWHERE: Record<string, { license: string; why: string }> = {
  'format@0.2.2': {
    license: 'MIT',
    why: 'declared in the old `licenses` array, which npm does not copy to the lockfile',
  },
  'png-js@2.0.0': {
    license: 'MIT',
    why: 'its package.json names none; its LICENSE file is the MIT licence (pdfkit decodes PNG images with it)',
  },
};

interface LockedPackage {
  version?: string;
  license?: string;
  dev?: boolean;
}

const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockedPackage>;
};

/** What `npm ci --omit=dev` installs: every package not flagged dev-only, optional ones included; not the service itself. */
const shipped = Object.entries(lock.packages)
  .filter(([path, entry]) => path !== '' && entry.dev !== true)
  .map(([path, entry]) => {
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    return { id: `${name}@${entry.version}`, license: entry.license };
  });

function licenseOf(pkg: { id: string; license: string | undefined }): string | undefined {
  return pkg.license ?? DECLARED_ELSEWHERE[pkg.id]?.license;
}

/** An SPDX expression of the simple kinds packages use: one licence, or a choice (OR), or all of several (AND). */
function allowed(expression: string): boolean {
  const bare = expression.replace(/^\((.*)\)$/, '$1');
  if (bare.includes(' OR ')) return bare.split(' OR ').some((part) => allowed(part.trim()));
  if (bare.includes(' AND ')) return bare.split(' AND ').every((part) => allowed(part.trim()));
  return ALLOWED.has(bare);
}

/** The README's "Licences" section's table, as this lockfile makes it. */
function licenceTable(): string {
  const counts = new Map<string, number>();
  for (const pkg of shipped) counts.set(licenseOf(pkg)!, (counts.get(licenseOf(pkg)!) ?? 0) + 1);
  const rows = [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return ['| Licence | Packages |', '|---|---|', ...rows.map(([license, count]) => `| ${license} | ${count} |`)].join(
    '\n',
  );
}

describe('licences of the packages the service ships with', () => {
  it('are read from a lockfile that records them', () => {
    expect(lock.lockfileVersion).toBeGreaterThanOrEqual(2);
    expect(shipped.length).toBeGreaterThan(100);
  });

  it('are all permissive', () => {
    const unknown = shipped.filter((pkg) => licenseOf(pkg) === undefined).map((pkg) => pkg.id);
    expect(unknown, 'packages with no licence: look theirs up and add them to DECLARED_ELSEWHERE').toEqual([]);
    const refused = shipped.filter((pkg) => !allowed(licenseOf(pkg)!)).map((pkg) => `${pkg.id}: ${pkg.license}`);
    expect(refused).toEqual([]);
  });

  it('need every exception still', () => {
    for (const id of Object.keys(DECLARED_ELSEWHERE)) {
      expect(shipped.find((pkg) => pkg.id === id)?.license, id).toBeUndefined();
      expect(
        shipped.some((pkg) => pkg.id === id),
        `${id} is no longer shipped`,
      ).toBe(true);
    }
  });

  it('are listed, counted, in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Licences\n'));
    expect(section.length, 'README.md has a "## Licences" section').toBeLessThan(readme.length);
    expect(section).toContain(`The ${shipped.length} packages`);
    expect(section).toContain(licenceTable());
  });
});
