import type { IpClass } from './ip-ranges.js';
import { classifyIp, isIpLiteral, isIpv4Embedded, isLoopbackHost } from './ip-ranges.js';

const URL_MAX = 2048;
const ORIGIN_MAX = 255;

/** How a local receiver gets webhooks: the sandbox's opt-in, as flag and env. */
export const LOOPBACK_OPT_IN = 'start the sandbox with `paraph serve --allow-loopback-webhooks` (env WEBHOOKS_ALLOW_LOOPBACK=1)';

const CLASS_LABELS: Record<Exclude<IpClass, 'public' | 'invalid'>, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  link_local: 'a link-local address',
  cgnat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved address',
  unique_local: 'a unique local address',
  nat64: 'a NAT64 address',
  broadcast: 'the broadcast address',
  documentation: 'a documentation address',
  benchmarking: 'a benchmarking address',
  teredo: 'a Teredo address',
  '6to4': 'a 6to4 address',
};

// Stored values are echoed into requests and Location headers, so refuse what
// the URL parser would silently strip rather than storing it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const WHITESPACE_OR_CONTROL = /[\u0000-\u0020\u007f]/;
// "https:example.com", "https:\\example.com" and "https:///example.com" parse, but are not what anyone means:
// the host follows the two slashes.
const SCHEME_AND_SLASHES = /^[a-z][a-z0-9+.-]*:\/\/[^/\\]/i;
const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

function parseAbsolute(field: string, value: string, max: number): URL | string {
  if (value.length > max) return `${field} must be at most ${max} characters`;
  if (WHITESPACE_OR_CONTROL.test(value)) return `${field} must not contain whitespace or control characters`;
  if (!SCHEME_AND_SLASHES.test(value) || !URL.canParse(value)) {
    return `${field} must be an absolute URL such as https://example.com/`;
  }
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return `${field} must not contain a username or password`;
  return url;
}

// WHATWG URL accepts "*", empty labels and the like in domain names; DNS does not.
function hostError(field: string, hostname: string): string | null {
  if (isIpLiteral(hostname)) return null;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const valid = name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
  return valid ? null : `${field} has an invalid host name`;
}

export function checkCallbackUrl(value: string, options: { allowLoopback: boolean }): string | null {
  const url = parseAbsolute('callback_url', value, URL_MAX);
  if (typeof url === 'string') return url;
  const loopback = isLoopbackHost(url.hostname);
  if (loopback && options.allowLoopback) {
    // Local development servers rarely have certificates or port 443.
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'callback_url must use http or https';
  }
  if (loopback) {
    return `callback_url must not point to a loopback address; to receive webhooks on this machine, ${LOOPBACK_OPT_IN}`;
  }
  if (isIpLiteral(url.hostname)) {
    const cls = classifyIp(url.hostname);
    if (cls !== 'public' && cls !== 'invalid') {
      return `callback_url must not point to ${CLASS_LABELS[cls]}; only public destinations are allowed`;
    }
    // A public IPv4 behind ::ffff: is still a filter-evasion shape, never a real need.
    if (isIpv4Embedded(url.hostname)) return 'callback_url must not use an IPv4-mapped IPv6 address';
  }
  if (url.protocol !== 'https:' || url.port !== '') return 'callback_url must use https on port 443';
  return hostError('callback_url', url.hostname);
}

export function checkReturnUrl(value: string): string | null {
  const url = parseAbsolute('return_url', value, URL_MAX);
  if (typeof url === 'string') return url;
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!secure) return 'return_url must use https (http is allowed only for loopback hosts)';
  return hostError('return_url', url.hostname);
}

/** The logo in invitation mails: an https URL a mail client can load. */
export function checkLogoUrl(value: string): string | null {
  const url = parseAbsolute('logo_url', value, URL_MAX);
  if (typeof url === 'string') return url;
  if (url.protocol !== 'https:') return 'logo_url must use https';
  return hostError('logo_url', url.hostname);
}

export function checkEmbedOrigin(value: string): { origin: string } | { error: string } {
  if (value.includes('*')) return { error: 'embed_origin must not contain wildcards' };
  const url = parseAbsolute('embed_origin', value, ORIGIN_MAX);
  if (typeof url === 'string') return { error: url };
  // The parser turns "https://a.com" into "https://a.com/", so look at the raw text.
  const afterScheme = value.slice(value.indexOf('//') + 2);
  if (/[/?#\\]/.test(afterScheme)) {
    return { error: 'embed_origin must be an origin only (scheme, host and optional port), with no path, query or fragment' };
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!secure) return { error: 'embed_origin must use https (http is allowed only for loopback hosts)' };
  // Port 0 is no port a browser's page can come from.
  if (url.port === '0') return { error: 'embed_origin has port 0: give the port the embedding page is served on, or none' };
  const error = hostError('embed_origin', url.hostname);
  return error ? { error } : { origin: url.origin };
}
