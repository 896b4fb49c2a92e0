import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IpClass } from '../../src/domain/ip-ranges.js';
import { classifyIp, isIpLiteral, isIpv4Embedded, isLoopbackHost } from '../../src/domain/ip-ranges.js';

// Edges of each range are included so a widened or narrowed CIDR shows up.
const CLASSIFY: ReadonlyArray<readonly [string, IpClass]> = [
  // IPv4
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['128.0.0.1', 'public'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link_local'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['100.63.255.255', 'public'],
  ['100.128.0.0', 'public'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.20.0.0', 'public'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // Only ipaddr.js knows these: 6to4 relay anycast and AS112.
  ['192.88.99.1', 'reserved'],
  ['192.175.48.1', 'reserved'],
  // inet_aton shorthand, as WHATWG URL and getaddrinfo read it.
  ['127.1', 'loopback'],
  ['0x7f.0.0.1', 'loopback'],
  ['2130706433', 'loopback'],
  ['017.0.0.1', 'public'],
  // IPv6
  ['2606:4700:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['64:ff9b::a00:1', 'nat64'],
  ['64:ff9b::808:808', 'nat64'],
  ['64:ff9b:1::1', 'nat64'],
  ['64:ff9b:2::1', 'reserved'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001:2::1', 'benchmarking'],
  ['2001::1', 'teredo'],
  ['2001:0:ffff:ffff::1', 'teredo'],
  ['2002::1', '6to4'],
  ['2002:ffff::1', '6to4'],
  ['fc00::1', 'unique_local'],
  ['fd00::1', 'unique_local'],
  ['fe80::1', 'link_local'],
  ['febf::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['fe80::1%eth0.100', 'link_local'],
  ['[fe80::1%eth0]', 'link_local'],
  ['fec0::1', 'reserved'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['100::1', 'reserved'],
  ['2001:20::1', 'reserved'],
  ['2001:4:112::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['5f00::1', 'reserved'],
  // IPv4-mapped and IPv4-compatible forms take the embedded address's class.
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[::ffff:7f00:1]', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'link_local'],
  ['::ffff:100.64.0.1', 'cgnat'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  ['::127.0.0.1', 'loopback'],
  ['::a00:1', 'private'],
  ['::808:808', 'public'],
  // invalid
  ['', 'invalid'],
  ['localhost', 'invalid'],
  ['example.com', 'invalid'],
  ['256.0.0.1', 'invalid'],
  ['1.2.3.4.5', 'invalid'],
  [' 127.0.0.1', 'invalid'],
  ['::g', 'invalid'],
  ['[127.0.0.1]', 'invalid'],
  ['127.0.0.1%eth0', 'invalid'],
  ['fe80::1%', 'invalid'],
  ['fe80::1%eth 0', 'invalid'],
  ['[::1', 'invalid'],
];

for (const [address, expected] of CLASSIFY) {
  test(`classifyIp(${JSON.stringify(address)}) is ${expected}`, () => {
    assert.equal(classifyIp(address), expected);
  });
}

const LITERALS: ReadonlyArray<readonly [string, boolean]> = [
  ['8.8.8.8', true],
  ['127.1', true],
  ['::1', true],
  ['[::1]', true],
  ['fe80::1%eth0', true],
  ['example.com', false],
  ['localhost', false],
  ['[example.com]', false],
  ['', false],
];

for (const [host, expected] of LITERALS) {
  test(`isIpLiteral(${JSON.stringify(host)}) is ${expected}`, () => {
    assert.equal(isIpLiteral(host), expected);
  });
}

const LOOPBACK_HOSTS: ReadonlyArray<readonly [string, boolean]> = [
  ['localhost', true],
  ['LocalHost', true],
  ['localhost.', true],
  ['app.localhost', true],
  ['a.b.localhost', true],
  ['127.0.0.1', true],
  ['127.255.255.254', true],
  ['::1', true],
  ['[::1]', true],
  ['::ffff:127.0.0.1', true],
  ['[::ffff:7f00:1]', true],
  ['localhost.example.com', false],
  ['mylocalhost', false],
  ['example.com', false],
  ['128.0.0.1', false],
  ['10.0.0.1', false],
  ['0.0.0.0', false],
  ['::', false],
  ['::ffff:10.0.0.1', false],
  // IPv4-compatible (deprecated), as URL hosts spell it: no stack routes it to the loopback interface.
  ['[::7f00:1]', false],
  ['', false],
];

for (const [host, expected] of LOOPBACK_HOSTS) {
  test(`isLoopbackHost(${JSON.stringify(host)}) is ${expected}`, () => {
    assert.equal(isLoopbackHost(host), expected);
  });
}

const EMBEDDED: ReadonlyArray<readonly [string, boolean]> = [
  ['::ffff:8.8.8.8', true],
  ['[::ffff:808:808]', true],
  ['::808:808', true],
  ['::1', false],
  ['::', false],
  ['8.8.8.8', false],
  ['64:ff9b::808:808', false],
  ['2606:4700::1111', false],
  ['example.com', false],
];

for (const [address, expected] of EMBEDDED) {
  test(`isIpv4Embedded(${JSON.stringify(address)}) is ${expected}`, () => {
    assert.equal(isIpv4Embedded(address), expected);
  });
}
