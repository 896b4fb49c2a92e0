import { lookup } from 'node:dns/promises';
import { LOOPBACK_OPT_IN } from '../../domain/url-rules.js';
import { classifyIp, isIpLiteral, isLoopbackHost } from '../../domain/ip-ranges.js';

export type Destination = { ok: true; address: string; family: 4 | 6 } | { ok: false; error: string };

/**
 * Where a webhook may be sent: the host is resolved once, every address it resolves to must be
 * public (or loopback with the opt-in), and the caller connects to the checked address, so a second
 * lookup cannot swap in another one.
 */
export async function resolveDestination(url: URL, allowLoopback: boolean): Promise<Destination> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIpLiteral(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch (error) {
      return { ok: false, error: `cannot resolve ${host} (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})` };
    }
  }
  if (addresses.length === 0) return { ok: false, error: `cannot resolve ${host}` };
  for (const { address } of addresses) {
    const kind = classifyIp(address);
    if (kind === 'public') continue;
    if (kind === 'loopback' && allowLoopback) continue;
    const hint = kind === 'loopback' ? `; to deliver to this machine, ${LOOPBACK_OPT_IN}` : '';
    return { ok: false, error: `destination refused by policy: ${host} resolves to a ${kind.replace('_', '-')} address (${address})${hint}` };
  }
  // A name that is loopback by definition must not reach a public address either.
  if (isLoopbackHost(host) && !allowLoopback)
    return { ok: false, error: `destination refused by policy: ${host} is loopback; to deliver to this machine, ${LOOPBACK_OPT_IN}` };
  const first = addresses[0] as { address: string; family: number };
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}
