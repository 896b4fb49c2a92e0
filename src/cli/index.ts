import { Command, CommanderError } from 'commander';
import type { Env } from '../platform/config.js';
import { PARAPH_VERSION } from '../platform/version.js';
import { EXIT_OK, EXIT_USAGE, exitCodeOf, messageOf, processIo, type Io } from './output.js';
import { reportUsageErrors } from './usage.js';

type CommandModule = (io: Io, env: Env) => Promise<Command[]>;

/**
 * paraph's commands in the order `paraph --help` lists them, each with the module that defines it, loaded
 * when asked for: a command line that names one loads that command's module alone (`paraph keys create`
 * does not load the HTTP server, the mail sender or the certificate code `serve` needs; the build keeps
 * each in its own chunk, scripts/bundle.js).
 */
const COMMANDS: ReadonlyArray<readonly [names: readonly string[], load: CommandModule]> = [
  [['serve'], async (io, env) => [(await import('./serve.js')).serveCommand(io, env)]],
  [['keys'], async (io, env) => [(await import('./keys.js')).keysCommand(io, env)]],
  [['requests'], async (io, env) => [(await import('./requests.js')).requestsCommand(io, env)]],
  [['clock'], async (io, env) => [(await import('./clock.js')).clockCommand(io, env)]],
  [['webhooks'], async (io, env) => [(await import('./webhooks.js')).webhooksCommand(io, env)]],
  [['emails'], async (io, env) => [(await import('./emails.js')).emailsCommand(io, env)]],
  [['faults'], async (io, env) => [(await import('./faults.js')).faultsCommand(io, env)]],
  [['sign'], async (io, env) => [(await import('./sign.js')).signCommand(io, env)]],
  [['listen'], async (io, env) => [(await import('./listen.js')).listenCommand(io, env)]],
  [['trigger'], async (io, env) => [(await import('./trigger.js')).triggerCommand(io, env)]],
  [['audit'], async (io, env) => [(await import('./audit.js')).auditCommand(io, env)]],
  [['dashboard'], async (io, env) => [(await import('./dashboard.js')).dashboardCommand(io, env)]],
  [['expire', 'purge'], async (io, env) => (await import('./force.js')).forceCommands(io, env)],
];

/**
 * The program with every command, or, given the command line, with the one command it names (its first
 * argument, when that is a command's name), or none for `paraph --version` alone: the same definitions
 * either way, so its help, its usage errors and its answers are the same. Anything else (no command, an
 * option first, `help`, a mistyped name) gets every command, to list them or to suggest one.
 */
export async function buildProgram(io: Io, env: Env, argv?: readonly string[]): Promise<Command> {
  const named = argv?.[2];
  const versionAlone = argv?.length === 3 && (named === '--version' || named === '-V');
  const only = COMMANDS.filter(([names]) => named !== undefined && names.includes(named));
  const commands = (await Promise.all((versionAlone ? [] : only.length > 0 ? only : COMMANDS).map(([, load]) => load(io, env)))).flat();
  const program = new Command('paraph').description('A local sandbox of an e-signature API').version(PARAPH_VERSION, '-V, --version', "print paraph's version");
  for (const command of commands) program.addCommand(command);
  applyRecursively(program, (command) => reportUsageErrors(command, io));
  return program;
}

function applyRecursively(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyRecursively(sub, apply);
}

/** Runs the CLI and answers its exit code: 0 success, 1 error, 2 bad usage. */
export async function run(argv: string[], env: Env, io: Io = processIo): Promise<number> {
  const program = await buildProgram(io, env, argv);
  try {
    await program.parseAsync(argv);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed the help, the version, or what was wrong (see usage.ts). The help
      // it prints by itself, for a command that needs a subcommand and has none, is bad usage too.
      const shown = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
      return shown && error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    io.err(`paraph: ${messageOf(error)}`);
    return exitCodeOf(error);
  }
}

export async function main(): Promise<void> {
  const serving = process.argv[2] === 'serve';
  // A reader that stops early (`paraph requests show ID | head -1`) closes the pipe: what is left
  // of the output has nobody to read it, which is no error of the command's. A server keeps serving
  // (what it would print is dropped), and stops as usual, on a signal.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!brokenPipe(error)) throw error;
    if (!serving) process.exit(process.exitCode ?? EXIT_OK);
  });
  // Nobody reads the message either: the exit code still tells what happened (2 for bad usage).
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (!brokenPipe(error)) throw error;
  });
  process.exitCode = await run(process.argv, process.env);
}

/** A pipe whose reader is gone: the write that found it so, and every later write to the same stream. */
const brokenPipe = (error: NodeJS.ErrnoException) => error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
