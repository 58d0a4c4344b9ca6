import type { IntegrationBlock } from './schemas.js';

/** A host as a block pattern names it: labels of letters, digits, `-` and `_`, the first one maybe `*`. */
const HOST = /^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

/**
 * The host a urlUnfurl pattern names (`https://*.example.com/file/*` names
 * `*.example.com`), or undefined for a pattern without one. The scheme is
 * optional; the host ends at the first `/`, `?`, `#` or `:`.
 */
export function patternHost(pattern: string): string | undefined {
  const withoutScheme = pattern.trim().replace(/^[a-z][a-z0-9+.-]{0,20}:\/\//i, '');
  const end = withoutScheme.search(/[/?#:]/);
  const host = (end === -1 ? withoutScheme : withoutScheme.slice(0, end)).toLowerCase().replace(/\.$/, '');
  return HOST.test(host) ? host : undefined;
}

/** The distinct hosts the blocks' patterns name: what the blockDomain filter looks up. */
export function blockDomains(blocks: readonly IntegrationBlock[]): string[] {
  const hosts = new Set<string>();
  for (const block of blocks) {
    for (const pattern of block.urlUnfurl ?? []) {
      const host = patternHost(pattern);
      if (host) hosts.add(host);
    }
  }
  return [...hosts];
}

/**
 * The stored hosts that match a domain: the domain itself, and the wildcards
 * over it (`www.example.com` is matched by `*.example.com` and `*.com`). A
 * wildcard covers subdomains only, as in a certificate: `*.example.com` does
 * not match `example.com`.
 */
export function domainMatches(domain: string): string[] {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  return [labels.join('.'), ...labels.slice(1).map((_, index) => `*.${labels.slice(index + 1).join('.')}`)];
}
