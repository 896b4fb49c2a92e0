import { pino } from 'pino';
/** JSON lines on stderr, so stdout stays for the banner and `--json` output. */
export function createLog(level) {
    return pino({
        level,
        base: { name: 'paraph' },
        // Never the URL or headers: a URL can carry a signing token, headers an API key.
        serializers: {
            req: (req) => ({
                id: req.id,
                method: req.method,
                route: req.routeOptions?.url,
            }),
        },
    }, pino.destination(2));
}
//# sourceMappingURL=log.js.map