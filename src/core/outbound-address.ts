import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** 2000::/3, the only IPv6 block IANA hands out for global unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

function ipv4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function isPublicV4(address: ipaddr.IPv4): boolean {
  // Everything ipaddr.js names (private, loopback, carrierGradeNat, reserved, as112, amt ...) is refused.
  return address.range() === 'unicast';
}

function isPublicV6(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  // range() is typed narrower than what ipaddr.js returns (discard, segmentRouting ...); anything unlisted is refused.
  switch (address.range() as string) {
    case 'unicast':
      // ipaddr.js calls anything it has no name for "unicast", including the deprecated ::a.b.c.d form.
      return address.match(GLOBAL_UNICAST_V6);
    case 'ipv4Mapped':
    case 'rfc6145':
      return isPublicV4(address.toIPv4Address());
    case 'rfc6052':
      // 64:ff9b::/96 carries the IPv4 address in its last 32 bits; 64:ff9b:1::/48 is for local use only.
      return parts[2] === 0 && isPublicV4(ipv4FromParts(parts[6]!, parts[7]!));
    case '6to4':
      return isPublicV4(ipv4FromParts(parts[1]!, parts[2]!));
    case 'teredo':
      // The Teredo server's address is in clear; the client's is stored with every bit flipped.
      return (
        isPublicV4(ipv4FromParts(parts[2]!, parts[3]!)) &&
        isPublicV4(ipv4FromParts(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff))
      );
    default:
      return false;
  }
}

/**
 * Whether `ip` is a globally routable unicast address: the only kind an outbound fetch may connect to.
 * Only canonical forms count (what DNS resolution and URL parsing produce); "127.1", zone ids and
 * anything else unusual is refused rather than interpreted.
 */
export function isPublicAddress(ip: string): boolean {
  if (isIP(ip) === 0 || ip.includes('%')) return false;
  try {
    const address = ipaddr.parse(ip);
    return address.kind() === 'ipv4' ? isPublicV4(address as ipaddr.IPv4) : isPublicV6(address as ipaddr.IPv6);
  } catch {
    return false;
  }
}
