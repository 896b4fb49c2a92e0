import { Command } from 'commander';
import type { Env } from '../platform/config.js';
import { forceExpire, forcePurge } from '../features/sandbox/force-request-outcome.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, type Io } from './output.js';

/** `paraph expire ID` and `paraph purge ID`: one request's outcome, now. */
export function forceCommands(io: Io, env: Env): Command[] {
  const expire = new Command('expire')
    .description("expire the request's links now, as if the expiry date had passed (an active request)")
    .argument('<request_id>')
    .option('--json', 'print the request status as JSON')
    .addOption(dataDirOption())
    .action(async (id: string, opts: { json?: boolean; dataDir?: string }) => {
      const status = await withContext(opts, env, (ctx) => forceExpire(ctx, { accountId: null, id }));
      if (opts.json) return printJson(io, status);
      io.out(`Request ${id} is now ${status.status}.`);
    });
  const purge = new Command('purge')
    .description("purge the request's content now, as if the retention deadline had passed")
    .argument('<request_id>')
    .option('--json', 'print the request status as JSON')
    .addOption(dataDirOption())
    .action(async (id: string, opts: { json?: boolean; dataDir?: string }) => {
      const status = await withContext(opts, env, (ctx) => forcePurge(ctx, { accountId: null, id }));
      if (opts.json) return printJson(io, status);
      io.out(`Request ${id} is now ${status.status}: its PDF content is deleted.`);
    });
  return [expire, purge];
}
