import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCallbackUrl, checkEmbedOrigin, checkReturnUrl } from '../../src/domain/url-rules.js';

// null = valid; a RegExp = rejected with a message naming the broken rule, so a
// case that some other rule happens to reject still fails when its own rule goes.
type Expect = null | RegExp;

const pad = (prefix: string, length: number): string => prefix + 'a'.repeat(length - prefix.length);

function check(actual: string | null, expected: Expect): void {
  if (expected === null) assert.equal(actual, null);
  else assert.match(actual ?? '(accepted)', expected);
}

const ABSOLUTE = /absolute URL/;
const CREDENTIALS = /username or password/;
const HTTPS_443 = /must use https on port 443/;
const LOOPBACK = /loopback address.*WEBHOOKS_ALLOW_LOOPBACK/;
const BAD_HOST = /invalid host name/;

const CALLBACK_STRICT: ReadonlyArray<readonly [string, Expect]> = [
  ['https://example.com/hooks', null],
  ['https://example.com:443/hooks', null],
  ['https://EXAMPLE.com/x?y=1#z', null],
  ['https://example.com./hooks', null],
  ['https://bücher.de/hooks', null],
  ['https://hooks_1.example.com/', null],
  ['https://8.8.8.8/', null],
  ['https://[2606:4700:4700::1111]/', null],
  [pad('https://example.com/', 2048), null],
  [pad('https://example.com/', 2049), /at most 2048 characters/],
  ['https://example.com:8443/', HTTPS_443],
  ['https://example.com:80/', HTTPS_443],
  ['http://example.com/', HTTPS_443],
  ['ftp://x', HTTPS_443],
  ['file:///etc/passwd', ABSOLUTE], // (no host after the slashes)
  ['wss://example.com/', HTTPS_443],
  ['https://user:pw@example.com/', CREDENTIALS],
  ['https://user@example.com/', CREDENTIALS],
  ['https://:pw@example.com/', CREDENTIALS],
  ['/hooks', ABSOLUTE],
  ['hooks', ABSOLUTE],
  ['example.com/hooks', ABSOLUTE],
  ['//example.com/hooks', ABSOLUTE],
  ['https:example.com/hooks', ABSOLUTE],
  ['https:\\\\example.com/hooks', ABSOLUTE],
  ['https:///example.com/hooks', ABSOLUTE],
  ['javascript:alert(1)', ABSOLUTE],
  ['https://', ABSOLUTE],
  ['', ABSOLUTE],
  [' https://example.com/', /whitespace or control/],
  ['https://exa\tmple.com/', /whitespace or control/],
  ['https://example.com/\n', /whitespace or control/],
  ['https://localhost/', LOOPBACK],
  ['https://localhost./', LOOPBACK],
  ['https://api.localhost/', LOOPBACK],
  ['http://localhost:3000/hook', LOOPBACK],
  ['https://127.0.0.1/', LOOPBACK],
  ['https://127.1/', LOOPBACK],
  ['https://0x7f.0.0.1/', LOOPBACK],
  ['https://2130706433/', LOOPBACK],
  ['https://[::1]/', LOOPBACK],
  ['https://[::ffff:127.0.0.1]/', LOOPBACK],
  ['https://10.0.0.1/', /private address/],
  ['https://172.16.0.1/', /private address/],
  ['https://192.168.1.1/', /private address/],
  ['https://[::ffff:10.0.0.1]/', /private address/],
  ['https://169.254.169.254/', /link-local address/],
  ['https://[fe80::1]/', /link-local address/],
  ['https://100.64.0.1/', /carrier-grade NAT address/],
  ['https://[fd00::1]/', /unique local address/],
  ['https://[64:ff9b::a00:1]/', /NAT64 address/],
  ['https://0.0.0.0/', /unspecified address/],
  ['https://[::]/', /unspecified address/],
  ['https://224.0.0.1/', /multicast address/],
  ['https://[ff02::1]/', /multicast address/],
  ['https://255.255.255.255/', /broadcast address/],
  ['https://240.0.0.1/', /reserved address/],
  ['https://192.0.2.1/', /documentation address/],
  ['https://[2001:db8::1]/', /documentation address/],
  ['https://198.18.0.1/', /benchmarking address/],
  ['https://[2001::1]/', /Teredo address/],
  ['https://[2002::1]/', /6to4 address/],
  ['https://[::ffff:8.8.8.8]/', /IPv4-mapped/],
  ['https://*.example.com/', BAD_HOST],
  ['https://example..com/', BAD_HOST],
  ['https://./', BAD_HOST],
  ['https://-example.com/', BAD_HOST],
  ['https://example-.com/', BAD_HOST],
  [`https://${'a'.repeat(64)}.com/`, BAD_HOST],
  [`https://${'a.'.repeat(127)}com/`, BAD_HOST],
];

for (const [value, expected] of CALLBACK_STRICT) {
  test(`checkCallbackUrl(${JSON.stringify(value.slice(0, 60))}) without loopback opt-in`, () => {
    check(checkCallbackUrl(value, { allowLoopback: false }), expected);
  });
}

const CALLBACK_LOOPBACK: ReadonlyArray<readonly [string, Expect]> = [
  ['http://localhost:3000/hook', null],
  ['https://localhost:3000/hook', null],
  ['http://app.localhost:5173/', null],
  ['http://127.0.0.1:9/', null],
  ['http://127.1:4000/', null],
  ['http://[::1]:8080/', null],
  ['http://[::ffff:127.0.0.1]:8080/', null],
  ['https://example.com/', null],
  ['ws://localhost:3000/', /must use http or https/],
  ['http://user:pw@localhost:3000/', CREDENTIALS],
  ['http://10.0.0.1/', /private address/],
  ['https://10.0.0.1/', /private address/],
  ['http://169.254.169.254/', /link-local address/],
  ['http://0.0.0.0:3000/', /unspecified address/],
  ['http://[fd00::1]:8080/', /unique local address/],
  ['http://example.com/', HTTPS_443],
  ['https://example.com:8443/', HTTPS_443],
  ['http://localhost.example.com:3000/', HTTPS_443],
];

for (const [value, expected] of CALLBACK_LOOPBACK) {
  test(`checkCallbackUrl(${JSON.stringify(value)}) with loopback opt-in`, () => {
    check(checkCallbackUrl(value, { allowLoopback: true }), expected);
  });
}

const RETURN_HTTPS = /return_url must use https/;

const RETURN: ReadonlyArray<readonly [string, Expect]> = [
  ['https://example.com/done', null],
  ['https://example.com:8443/done?id=1#top', null],
  // A browser redirect, not a server-side call: private hosts are the user's business.
  ['https://10.0.0.1/done', null],
  ['http://localhost:3000/done', null],
  ['http://app.localhost/done', null],
  ['http://127.0.0.1:8080/done', null],
  ['http://[::1]:8080/done', null],
  [pad('https://example.com/', 2048), null],
  [pad('https://example.com/', 2049), /at most 2048 characters/],
  ['http://example.com/done', RETURN_HTTPS],
  ['http://10.0.0.1/done', RETURN_HTTPS],
  ['http://0.0.0.0:3000/done', RETURN_HTTPS],
  ['http://localhost.example.com/done', RETURN_HTTPS],
  ['ftp://example.com/done', RETURN_HTTPS],
  ['https://user:pw@example.com/done', CREDENTIALS],
  ['/done', ABSOLUTE],
  ['javascript:alert(1)', ABSOLUTE],
  ['https:example.com/done', ABSOLUTE],
  ['https:///evil.example/done', ABSOLUTE],
  ['https://\\evil.example/done', ABSOLUTE],
  [' https://example.com/done', /whitespace or control/],
  ['https://*.example.com/done', BAD_HOST],
];

for (const [value, expected] of RETURN) {
  test(`checkReturnUrl(${JSON.stringify(value.slice(0, 60))})`, () => {
    check(checkReturnUrl(value), expected);
  });
}

// 8 + 247 = 255 characters, every label within 63 and the name within 253.
const LONGEST_HOST = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(55)}`;
const ORIGIN_ONLY = /origin only/;
const ORIGIN_HTTPS = /embed_origin must use https/;

const EMBED: ReadonlyArray<readonly [string, string | RegExp]> = [
  ['https://example.com', 'https://example.com'],
  ['https://EXAMPLE.com:443', 'https://example.com'],
  ['HTTPS://Example.COM', 'https://example.com'],
  ['https://a.b:8443', 'https://a.b:8443'],
  ['https://good.example:0', /port 0/],
  ['https://[2606:4700::1111]', 'https://[2606:4700::1111]'],
  ['http://localhost:3000', 'http://localhost:3000'],
  ['http://127.0.0.1:5173', 'http://127.0.0.1:5173'],
  ['http://[::1]:8080', 'http://[::1]:8080'],
  [`https://${LONGEST_HOST}`, `https://${LONGEST_HOST}`],
  [`https://${LONGEST_HOST}d`, /at most 255 characters/],
  ['https://example.com/', ORIGIN_ONLY],
  ['https://example.com/app', ORIGIN_ONLY],
  ['https://example.com?x=1', ORIGIN_ONLY],
  ['https://example.com?', ORIGIN_ONLY],
  ['https://example.com#frame', ORIGIN_ONLY],
  ['https://example.com#', ORIGIN_ONLY],
  ['https://example.com\\', ORIGIN_ONLY],
  ['http://example.com', ORIGIN_HTTPS],
  ['http://10.0.0.1:3000', ORIGIN_HTTPS],
  ['ftp://example.com', ORIGIN_HTTPS],
  ['https://*.example.com', /wildcard/],
  ['*', /wildcard/],
  ['https://user:pw@example.com', CREDENTIALS],
  ['example.com', ABSOLUTE],
  ['https:example.com', ABSOLUTE],
  ['', ABSOLUTE],
  [' https://example.com', /whitespace or control/],
  ['https://example..com', BAD_HOST],
];

for (const [value, expected] of EMBED) {
  test(`checkEmbedOrigin(${JSON.stringify(value.slice(0, 60))})`, () => {
    const result = checkEmbedOrigin(value);
    if (typeof expected === 'string') assert.deepEqual(result, { origin: expected });
    else assert.match('error' in result ? result.error : `(accepted ${result.origin})`, expected);
  });
}
