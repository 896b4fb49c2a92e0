import { Command } from 'commander';
import type { Env } from '../platform/config.js';
import { dashboardUrl, knownDashboardUrl } from '../features/dashboard/dashboard-url.js';
import { rotateDashboardToken } from '../features/dashboard/dashboard-token.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, type Io } from './output.js';

export function dashboardCommand(io: Io, env: Env): Command {
  const dashboard = new Command('dashboard').description('the operator dashboard: its sign-in URL and token');

  dashboard
    .command('url')
    .description("the dashboard's URL with its token, on the address the last serve on this data directory listened on")
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (opts: { json?: boolean; dataDir?: string }) => {
      const url = await withContext(opts, env, (ctx) => dashboardUrl(ctx));
      if (opts.json) return printJson(io, { dashboard_url: url });
      io.out(url);
    });

  dashboard
    .command('rotate-token')
    .description('make a new dashboard token: the old one stops working at once, also in a running server')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (opts: { json?: boolean; dataDir?: string }) => {
      const url = await withContext(opts, env, (ctx) => {
        rotateDashboardToken(ctx);
        return knownDashboardUrl(ctx);
      });
      if (opts.json) return printJson(io, { rotated: true, dashboard_url: url });
      io.out(`New dashboard token; the previous one no longer works.\n${url ?? 'The next `paraph serve` prints the dashboard URL that carries it.'}`);
    });
  return dashboard;
}
