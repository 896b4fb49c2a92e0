import { Command, CommanderError } from 'commander';
import type { Env } from '../platform/config.js';
import { PARAPH_VERSION } from '../platform/version.js';
import { auditCommand } from './audit.js';
import { clockCommand } from './clock.js';
import { dashboardCommand } from './dashboard.js';
import { emailsCommand } from './emails.js';
import { faultsCommand } from './faults.js';
import { forceCommands } from './force.js';
import { keysCommand } from './keys.js';
import { listenCommand } from './listen.js';
import { requestsCommand } from './requests.js';
import { EXIT_OK, EXIT_USAGE, exitCodeOf, messageOf, processIo, type Io } from './output.js';
import { serveCommand } from './serve.js';
import { signCommand } from './sign.js';
import { triggerCommand } from './trigger.js';
import { reportUsageErrors } from './usage.js';
import { webhooksCommand } from './webhooks.js';

export function buildProgram(io: Io, env: Env): Command {
  const program = new Command('paraph')
    .description('A local sandbox of an e-signature API')
    .version(PARAPH_VERSION, '-V, --version', "print paraph's version")
    .addCommand(serveCommand(io, env))
    .addCommand(keysCommand(io, env))
    .addCommand(requestsCommand(io, env))
    .addCommand(clockCommand(io, env))
    .addCommand(webhooksCommand(io, env))
    .addCommand(emailsCommand(io, env))
    .addCommand(faultsCommand(io, env))
    .addCommand(signCommand(io, env))
    .addCommand(listenCommand(io, env))
    .addCommand(triggerCommand(io, env))
    .addCommand(auditCommand(io, env))
    .addCommand(dashboardCommand(io, env));
  for (const command of forceCommands(io, env)) program.addCommand(command);
  applyRecursively(program, (command) => reportUsageErrors(command, io));
  return program;
}

function applyRecursively(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyRecursively(sub, apply);
}

/** Runs the CLI and answers its exit code: 0 success, 1 error, 2 bad usage. */
export async function run(argv: string[], env: Env, io: Io = processIo): Promise<number> {
  const program = buildProgram(io, env);
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
  process.exitCode = await run(process.argv, process.env);
}
