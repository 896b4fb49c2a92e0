import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type Log = Logger;

/** JSON lines on stderr, so stdout stays for the banner and `--json` output. */
export function createLog(level: LogLevel): Log {
  return pino(
    {
      level,
      base: { name: 'paraph' },
      // Never the URL or headers: a URL can carry a signing token, headers an API key.
      serializers: {
        req: (req: { id?: string; method?: string; routeOptions?: { url?: string } }) => ({
          id: req.id,
          method: req.method,
          route: req.routeOptions?.url,
        }),
      },
    },
    pino.destination(2),
  );
}
