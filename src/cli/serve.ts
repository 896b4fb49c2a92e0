import path from 'node:path';
import { Command, Option } from 'commander';
import { ConfigError, givenAs, resolveConfig, type Config, type ConfigFlags, type Env } from '../platform/config.js';
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
    .option('--ephemeral', 'use a throwaway data directory, deleted at exit; not with --data-dir (env PARAPH_EPHEMERAL=1)')
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
      // Listening for signals from before the start: a supervisor or a user may stop paraph while it
      // starts, and the start then ends as a stop after the banner does (an --ephemeral directory
      // deleted, exit 0) instead of the process dying with its files left behind.
      const stop = stopRequests(env);
      const start = () => startParaph(config);
      let running: RunningParaph;
      try {
        // An --ephemeral directory is paraph's own temporary one: no option or variable to name.
        running = config.dataDir === null ? await start() : await namingDataDirSource(opts, env, start);
      } catch (error) {
        stop.end();
        throw listenFailure(error, opts, env, config);
      }
      // A signal is handled when the event loop polls, and the start can run for a few hundred ms without
      // polling once (binding a port answers on the next tick): two turns of the loop let a signal that
      // came meanwhile be seen. Stopped while starting, paraph prints no banner for a server about to go.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      if (!stop.requested) {
        if (opts.json) {
          io.out(JSON.stringify(bannerJson(running)));
        } else {
          io.out(banner(running, config.dataDir === null));
        }
      }
      await stop.requestedOnce;
      await running.close();
    });
}

/**
 * A server that cannot listen where the options say is a mistake in the options (exit 2): a host
 * that is not an address of this machine, a port below 1024 without the rights for it. The message
 * names the option, or the variable the value came from, and what to use instead. A port in use is
 * left as it is (exit 1): another program holds it, and the same options may work later.
 */
function listenFailure(error: unknown, opts: ConfigFlags, env: Env, config: Config): unknown {
  const e = error as NodeJS.ErrnoException & { port?: unknown };
  const named = (flag: string | undefined, option: string, variable: string) => givenAs(flag, option, variable, env);
  // (EINVAL: an IPv6 link-local address without its interface, fe80::1 for fe80::1%eth0.)
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN' || e?.code === 'EADDRNOTAVAIL' || e?.code === 'EAFNOSUPPORT' || e?.code === 'EINVAL') {
    const { name, fix } = named(opts.host, '--host', 'PARAPH_HOST');
    const why =
      e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN'
        ? 'no address is known by that name'
        : e.code === 'EINVAL'
          ? 'it cannot be listened on as written (a link-local IPv6 address needs its interface: fe80::1%eth0)'
          : 'it is not an address of this machine';
    return new ConfigError(
      `${name} must be an address of this machine, got ${config.host}: ${why} (${e.code}). ` +
        `Use 127.0.0.1 (the default), 0.0.0.0 for every interface, or one of this machine's own addresses${fix}`,
    );
  }
  if ((e?.code === 'EACCES' || e?.code === 'EPERM') && typeof e.port === 'number') {
    // The catcher binds first, so a port given to both is the SMTP one's failure.
    const setting =
      e.port === config.smtpPort
        ? named(opts.smtpPort, '--smtp-port', 'PARAPH_SMTP_PORT')
        : e.port === config.port
          ? named(opts.port, '--port', 'PARAPH_PORT')
          : null;
    if (setting === null) return error;
    return new ConfigError(
      `${setting.name} must be a port this user may listen on, got ${e.port}: permission denied (${e.code}; ports below 1024 need ` +
        `administrator rights). Choose a port from 1024 up, or 0 for a free one${setting.fix}`,
    );
  }
  return error;
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
 * Waits for SIGINT or SIGTERM; `requestedOnce` resolves on the first, and the caller then lets in-flight
 * requests finish and closes the database (and deletes an --ephemeral directory). Started by npm (`npx
 * paraph serve`, an npm script), paraph also stops when npm's process is gone: npm passes a signal to
 * its shell, not to paraph, and a server left running on its own would keep the ports and the
 * temporary directory. A program that starts paraph (the programmatic sandbox) asks for the same with
 * PARAPH_STOP_WITH_PARENT=1. `end` stops listening, for a start that failed.
 */
function stopRequests(env: Env): { readonly requestedOnce: Promise<void>; readonly requested: boolean; end(): void } {
  let requested = false;
  let resolve = () => {};
  const requestedOnce = new Promise<void>((r) => (resolve = r));
  const end = () => {
    unwatch();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  const stop = () => {
    end();
    requested = true;
    // A second signal while closing ends the process at once.
    process.once('SIGINT', () => process.exit(130));
    process.once('SIGTERM', () => process.exit(143));
    resolve();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const unwatch = stopWithParent(env, stop);
  return {
    requestedOnce,
    get requested() {
      return requested;
    },
    end,
  };
}
