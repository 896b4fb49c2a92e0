import path from 'node:path';
import { Command, Option } from 'commander';
import { resolveConfig, type ConfigFlags, type Env } from '../platform/config.js';
import { startParaph, type RunningParaph } from '../server.js';
import { PARAPH_VERSION } from '../platform/version.js';
import type { Io } from './output.js';
import { namingDataDirSource } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { stopWithParent } from './parent-watch.js';

export function serveCommand(io: Io, env: Env): Command {
  return new Command('serve')
    .description('start the sandbox: REST API, storage and scheduler in one process')
    .option('--host <host>', 'address of the HTTP server (env PARAPH_HOST, default 127.0.0.1)')
    .option('--port <port>', 'HTTP port, 0 picks a free one (env PARAPH_PORT, default 4010)')
    .addOption(dataDirOption())
    .option('--smtp-port <port>', 'built-in SMTP catcher port, 0 picks a free one (env PARAPH_SMTP_PORT, default 2525)')
    .option('--smtp-relay <url>', "send paraph's own mail to this SMTP server instead of the catcher (env PARAPH_SMTP_RELAY)")
    .option('--smtp-max-messages <n>', 'caught messages kept, the oldest dropped (env PARAPH_SMTP_MAX_MESSAGES, default 5000)')
    .option('--public-url <url>', 'base of signing links and embed URLs (env PARAPH_PUBLIC_URL, default http://HOST:PORT)')
    .option('--allow-loopback-webhooks', 'accept http:// loopback callback URLs (env WEBHOOKS_ALLOW_LOOPBACK=1)')
    .option('--webhook-timeout <seconds>', 'how long one webhook attempt may take, 1 to 120 (env PARAPH_WEBHOOK_TIMEOUT, default 15)')
    .option(
      '--request-timeout <seconds>',
      'how long a request and its body may take to arrive, 1 to 120; later it is answered 408 (env PARAPH_REQUEST_TIMEOUT, default 60)',
    )
    .addOption(new Option('--rate-limit <mode>', 'on enforces the documented limits (env PARAPH_RATE_LIMIT, default on)').choices(['on', 'off']))
    .addOption(
      new Option('--timestamps <mode>', 'on timestamps every seal (PAdES B-T) with the built-in test authority (env PARAPH_TIMESTAMPS, default on)').choices([
        'on',
        'off',
      ]),
    )
    .option('--tsa-url <url>', 'use this RFC 3161 timestamp authority instead of the built-in one (env PARAPH_TSA_URL)')
    .option('--ephemeral', 'use a throwaway data directory, deleted at exit (env PARAPH_EPHEMERAL=1)')
    .option('--brand <word>', 'brand word in key prefixes, evidence schema, iframe source, return parameter (env PARAPH_BRAND, default paraph)')
    .addOption(
      new Option('--log-level <level>', 'server log level on stderr (env PARAPH_LOG_LEVEL, default warn)').choices([
        'fatal',
        'error',
        'warn',
        'info',
        'debug',
        'silent',
      ]),
    )
    .option('--json', 'print the ready banner as one JSON line')
    .action(async (opts: ConfigFlags & { json?: boolean }) => {
      const config = resolveConfig(opts, env, process.cwd());
      const start = () => startParaph(config);
      // An --ephemeral directory is paraph's own temporary one: no option or variable to name.
      const running = config.dataDir === null ? await start() : await namingDataDirSource(opts, env, start);
      // Listen for signals before announcing readiness: a supervisor may stop us right after the banner.
      const stopped = untilSignal(running, env);
      if (opts.json) {
        io.out(JSON.stringify(bannerJson(running)));
      } else {
        io.out(banner(running, config.dataDir === null));
      }
      await stopped;
    });
}

function bannerJson(running: RunningParaph) {
  return {
    status: 'ready',
    version: PARAPH_VERSION,
    // The server's own process: under `npx`, `$!` is npm's, so a script stops paraph by this one.
    pid: process.pid,
    api_url: `${running.url}/v1`,
    public_url: running.publicUrl,
    dashboard_url: running.dashboardUrl,
    smtp_port: running.smtpPort,
    data_dir: running.dataDir,
    account_id: running.firstKey?.account_id ?? null,
    api_key: running.firstKey?.api_key ?? null,
    webhook_secret: running.firstKey?.webhook_secret ?? null,
  };
}

function banner(running: RunningParaph, ephemeral: boolean): string {
  const lines = [
    `paraph ${PARAPH_VERSION}: e-signature sandbox ready`,
    '',
    `  API        ${running.url}/v1`,
    `  OpenAPI    ${running.url}/v1/openapi.json`,
    `  Dashboard  ${running.dashboardUrl}`,
    `  SMTP       catcher on port ${running.smtpPort} (read mail: paraph emails list)`,
    `  Data       ${running.dataDir}`,
    '',
  ];
  if (running.firstKey) {
    lines.push(
      '  First start: an account and an API key were created. The key is shown only now.',
      `  API key         ${running.firstKey.api_key}`,
      `  Webhook secret  ${running.firstKey.webhook_secret}`,
      '',
      ...(ephemeral ? [] : [`  Keep ${shownDir(running.dataDir)} out of version control (it holds master.key): add it to .gitignore.`, '']),
      `  Try:  curl -H "Authorization: Bearer <API key>" ${running.url}/v1/signature-requests`,
    );
  } else {
    lines.push('  API keys: `paraph keys list` shows them; `paraph keys create` makes a new one.');
  }
  lines.push('', 'Press Ctrl+C to stop.');
  return lines.join('\n');
}

/** The data directory as the user named it: relative to the working directory when inside it. */
function shownDir(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? `${relative}/` : dir;
}

/**
 * Runs until SIGINT or SIGTERM, then lets in-flight requests finish and closes the database (and
 * deletes an --ephemeral directory). Started by npm (`npx paraph serve`, an npm script), it also stops
 * when npm's process is gone: npm passes a signal to its shell, not to paraph, and a server left
 * running on its own would keep the ports and the temporary directory. A program that starts paraph
 * (the programmatic sandbox) asks for the same with PARAPH_STOP_WITH_PARENT=1.
 */
function untilSignal(running: RunningParaph, env: Env): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      unwatch();
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      // A second signal while closing ends the process at once.
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      running.close().then(resolve, reject);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    const unwatch = stopWithParent(env, stop);
  });
}
