import { lookup } from 'node:dns/promises';
import { classifyIp, isIpLiteral, isLoopbackHost } from '../net/ip-ranges.js';
/**
 * Where a webhook may be sent: the host is resolved once, every address it resolves to must be
 * public (or loopback with the opt-in), and the caller connects to the checked address, so a second
 * lookup cannot swap in another one.
 */
export async function resolveDestination(url, allowLoopback) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses;
    if (isIpLiteral(host)) {
        addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
    }
    else {
        try {
            addresses = await lookup(host, { all: true, verbatim: true });
        }
        catch (error) {
            return { ok: false, error: `cannot resolve ${host} (${error.code ?? 'lookup failed'})` };
        }
    }
    if (addresses.length === 0)
        return { ok: false, error: `cannot resolve ${host}` };
    for (const { address } of addresses) {
        const kind = classifyIp(address);
        if (kind === 'public')
            continue;
        if (kind === 'loopback' && allowLoopback)
            continue;
        return { ok: false, error: `destination refused by policy: ${host} resolves to a ${kind.replace('_', '-')} address (${address})` };
    }
    // A name that is loopback by definition must not reach a public address either.
    if (isLoopbackHost(host) && !allowLoopback)
        return { ok: false, error: `destination refused by policy: ${host} is loopback` };
    const first = addresses[0];
    return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}
//# sourceMappingURL=ssrf-guard.js.map