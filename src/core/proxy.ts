import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * Which proxies in front of the service are believed about the client's
 * address and the host it asked for: none (`false`), a number of hops
 * counted from the service, or the proxies' addresses and networks. Never
 * every hop: then any client names its own address and host.
 */
export type TrustProxy = false | number | string[];

/** What TRUST_PROXY may say, for the error that refuses anything else. */
export const TRUST_PROXY_FORMS =
  '`false`, a number of proxy hops (such as `1`), or a comma-separated list of the proxies’ addresses or CIDR networks (such as `10.0.0.0/8,127.0.0.1`)';

/** TRUST_PROXY read; a string naming the problem when it is not one of TRUST_PROXY_FORMS. */
export function parseTrustProxy(value: string): TrustProxy | string {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') {
    return `TRUST_PROXY=true (trust every hop) lets any client set its own address and host; use ${TRUST_PROXY_FORMS}`;
  }
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isAddressOrNetwork(entry));
  if (bad !== undefined)
    return `TRUST_PROXY has ${JSON.stringify(bad)}, which is not an address or network; use ${TRUST_PROXY_FORMS}`;
  return entries;
}

function isAddressOrNetwork(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * The trust function Fastify is given (proxy-addr's shape): whether the
 * address at `hop` (0 is the peer the request came from, 1 the address it
 * forwarded for, ...) is a proxy to believe about the one before it. Fastify
 * reads the client's address and X-Forwarded-Host/-Proto by it, and so does
 * rewriteUrl through requestHost: one rule for both.
 */
export function trustFunction(trust: TrustProxy): (address: string | undefined, hop: number) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  const list = new BlockList();
  for (const entry of trust) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    if (address === undefined || isIP(address) === 0) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped !== undefined && list.check(mapped, 'ipv4')) return true;
    return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The host a request asked for, read as Fastify's `request.host` reads it:
 * the last X-Forwarded-Host entry (the one the trusted proxy appended) when
 * the peer is a trusted proxy, else the Host header. Entries a client puts
 * before it are never read.
 */
export function requestHost(
  request: IncomingMessage,
  trusted: (address: string | undefined, hop: number) => boolean,
): string {
  const forwarded = request.headers['x-forwarded-host'];
  if (forwarded && trusted(request.socket?.remoteAddress, 0)) {
    return (Array.isArray(forwarded) ? forwarded.join(',') : forwarded).split(',').at(-1)?.trim() ?? '';
  }
  return request.headers.host ?? '';
}
