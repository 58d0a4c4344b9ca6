import { isIP } from 'node:net';

/** The TXT record a claim is proven by: its name under the hostname. */
export const CHALLENGE_LABEL = '_quire-challenge';

export function challengeName(hostname: string): string {
  return `${CHALLENGE_LABEL}.${hostname}`;
}

/** One DNS label: letters, digits and inner hyphens, 63 characters at most. */
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A hostname in its one form, lower case and without a trailing dot, or a
 * sentence saying why it is not one a site can claim: a DNS name of two labels
 * at least, 253 characters at most, not an IP address, with a top label that
 * is not all digits.
 */
export function normalizeHostname(input: string): { hostname: string } | { problem: string } {
  const hostname = input.trim().toLowerCase().replace(/\.$/, '');
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIP(bare) !== 0) return { problem: 'must be a DNS name, not an IP address' };
  if (hostname.length === 0 || hostname.length > 253) return { problem: 'must be a DNS name of 1 to 253 characters' };
  const labels = hostname.split('.');
  if (labels.length < 2) return { problem: 'must have two labels at least, such as docs.example.com' };
  if (!labels.every((label) => LABEL.test(label))) {
    return { problem: 'must be a DNS name: labels of letters, digits and inner hyphens, 63 characters at most' };
  }
  if (/^\d+$/.test(labels.at(-1)!)) return { problem: 'must be a DNS name, not an IP address' };
  return { hostname };
}

/**
 * Hostnames no site may claim: the service's own (PUBLIC_URL's host, whatever
 * its port) and those the operator lists, where `*.example.com` stands for
 * every name under example.com (not example.com itself).
 */
export class ReservedHostnames {
  private readonly exact = new Set<string>();
  private readonly suffixes: string[] = [];

  constructor(publicUrl: string, listed: readonly string[]) {
    this.exact.add(new URL(publicUrl).hostname.toLowerCase().replace(/\.$/, ''));
    for (const entry of listed) {
      const name = entry.trim().toLowerCase().replace(/\.$/, '');
      if (name.startsWith('*.')) this.suffixes.push(name.slice(1));
      else if (name !== '') this.exact.add(name);
    }
  }

  /** Why the (normalized) hostname is reserved, or undefined when it is free to claim. */
  reason(hostname: string): string | undefined {
    if (this.exact.has(hostname)) return 'is reserved: it is the service’s own host or one its operator reserved';
    if (this.suffixes.some((suffix) => hostname.endsWith(suffix))) {
      return 'is reserved: its operator reserved the names under it';
    }
    return undefined;
  }
}

/** RESERVED_HOSTNAMES read: a sentence naming the first entry that is neither a hostname nor `*.` and one. */
export function parseReservedHostnames(value: string | undefined): string[] | string {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const name = entry.startsWith('*.') ? entry.slice(2) : entry;
    const bare = name.toLowerCase().replace(/\.$/, '');
    if (isIP(bare) !== 0) continue;
    if (!bare.split('.').every((label) => LABEL.test(label))) {
      return `RESERVED_HOSTNAMES has ${JSON.stringify(entry)}, which is not a hostname or *.hostname`;
    }
  }
  return entries;
}
