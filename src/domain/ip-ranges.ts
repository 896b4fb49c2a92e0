import ipaddr from 'ipaddr.js';

export type IpClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'reserved'
  | 'unique_local'
  | 'nat64'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'teredo'
  | '6to4'
  | 'invalid';

type Range<T> = [T, number];
type Table<T> = ReadonlyArray<readonly [Exclude<IpClass, 'public' | 'invalid'>, Range<T>]>;

const v4 = (cidr: string): Range<ipaddr.IPv4> => ipaddr.IPv4.parseCIDR(cidr);
const v6 = (cidr: string): Range<ipaddr.IPv6> => ipaddr.IPv6.parseCIDR(cidr);

// Checked in order, so narrower ranges come before the ones that contain them
// (255.255.255.255 inside 240/4). Explicit rather than ipaddr's range() names,
// which lump documentation and benchmarking into 'reserved'.
const V4_TABLE: Table<ipaddr.IPv4> = [
  // 0.0.0.0 reaches the local host on Linux; the rest of 0/8 is "this network".
  ['unspecified', v4('0.0.0.0/8')],
  ['loopback', v4('127.0.0.0/8')],
  ['private', v4('10.0.0.0/8')],
  ['private', v4('172.16.0.0/12')],
  ['private', v4('192.168.0.0/16')],
  ['link_local', v4('169.254.0.0/16')],
  ['cgnat', v4('100.64.0.0/10')],
  ['reserved', v4('192.0.0.0/24')],
  ['documentation', v4('192.0.2.0/24')],
  ['documentation', v4('198.51.100.0/24')],
  ['documentation', v4('203.0.113.0/24')],
  ['benchmarking', v4('198.18.0.0/15')],
  ['multicast', v4('224.0.0.0/4')],
  ['broadcast', v4('255.255.255.255/32')],
  ['reserved', v4('240.0.0.0/4')],
];

const UNSPECIFIED_V6 = v6('::/128');
const LOOPBACK_V6 = v6('::1/128');

const V6_TABLE: Table<ipaddr.IPv6> = [
  ['unspecified', UNSPECIFIED_V6],
  ['loopback', LOOPBACK_V6],
  ['nat64', v6('64:ff9b::/96')],
  ['nat64', v6('64:ff9b:1::/48')],
  ['documentation', v6('2001:db8::/32')],
  ['documentation', v6('3fff::/20')],
  ['benchmarking', v6('2001:2::/48')],
  ['teredo', v6('2001::/32')],
  ['6to4', v6('2002::/16')],
  ['unique_local', v6('fc00::/7')],
  ['link_local', v6('fe80::/10')],
  ['multicast', v6('ff00::/8')],
];

const MAPPED = v6('::ffff:0:0/96');
const COMPATIBLE = v6('::/96');
// Everything outside 2000::/3 is unallocated or special-purpose.
const GLOBAL_UNICAST = v6('2000::/3');
const ZONE_ID = /^[0-9A-Za-z._~-]+$/;

function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let text = address;
  const bracketed = text.startsWith('[') && text.endsWith(']');
  if (bracketed) text = text.slice(1, -1);
  const percent = text.indexOf('%');
  const hasZone = percent !== -1;
  if (hasZone) {
    if (!ZONE_ID.test(text.slice(percent + 1))) return null;
    text = text.slice(0, percent);
  }
  if (ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  // Brackets and zone ids only make sense around IPv6. IPv4 parsing is
  // inet_aton-style (127.1, 0x7f.0.0.1), matching WHATWG URL and getaddrinfo.
  if (!bracketed && !hasZone && ipaddr.IPv4.isValid(text)) return ipaddr.IPv4.parse(text);
  return null;
}

/** The IPv4 address carried by an IPv4-mapped or IPv4-compatible IPv6 address, if any. */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  // :: and ::1 are compatible-shaped but have their own meaning.
  const compatible = ip.match(COMPATIBLE) && !ip.match(UNSPECIFIED_V6) && !ip.match(LOOPBACK_V6);
  if (!ip.match(MAPPED) && !compatible) return null;
  // toIPv4Address() only accepts the mapped form.
  const [high = 0, low = 0] = ip.parts.slice(-2);
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function classifyV4(ip: ipaddr.IPv4): IpClass {
  for (const [name, range] of V4_TABLE) if (ip.match(range)) return name;
  // ipaddr knows a few more special blocks (6to4 relay anycast, AS112, AMT);
  // it also covers 192.0.0.0/24 and 240/4, which stay listed above so the table reads whole.
  return ip.range() === 'unicast' ? 'public' : 'reserved';
}

function classifyV6(ip: ipaddr.IPv6): IpClass {
  const inner = embeddedIpv4(ip);
  if (inner) return classifyV4(inner);
  for (const [name, range] of V6_TABLE) if (ip.match(range)) return name;
  if (!ip.match(GLOBAL_UNICAST)) return 'reserved';
  return ip.range() === 'unicast' ? 'public' : 'reserved';
}

/**
 * Classifies an IP address; only 'public' may be called without the loopback opt-in.
 * Accepts `[v6]` and zone ids; IPv4-mapped/compatible IPv6 is classified as its IPv4 address.
 */
export function classifyIp(address: string): IpClass {
  const ip = parse(address);
  if (!ip) return 'invalid';
  return ip instanceof ipaddr.IPv4 ? classifyV4(ip) : classifyV6(ip);
}

export function isIpLiteral(host: string): boolean {
  return parse(host) !== null;
}

/** True for IPv6 literals that embed an IPv4 address (::ffff:a.b.c.d, ::a.b.c.d). */
export function isIpv4Embedded(address: string): boolean {
  const ip = parse(address);
  return ip instanceof ipaddr.IPv6 && embeddedIpv4(ip) !== null;
}

export function isLoopbackHost(host: string): boolean {
  // "localhost." is the same name as "localhost" to the resolver.
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  // The deprecated IPv4-compatible form (::127.0.0.1) is not the loopback interface to any current
  // stack, unlike the mapped one (::ffff:127.0.0.1), which dual-stack sockets deliver to 127.0.0.1.
  const ip = parse(host);
  if (ip instanceof ipaddr.IPv6 && ip.match(COMPATIBLE) && !ip.match(LOOPBACK_V6)) return false;
  return classifyIp(host) === 'loopback';
}
