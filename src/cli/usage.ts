import { Help, type Command } from 'commander';
import { durationMistake } from '../domain/duration.js';
import type { Io } from './output.js';

/**
 * How every command reports bad usage: one or two lines that say what is wrong and where the help
 * is, instead of commander's whole help text. Applied to each command of the program.
 */
export function reportUsageErrors(command: Command, io: Io): void {
  let errorContext = false;
  command
    .exitOverride()
    .showHelpAfterError(false)
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      outputError: (text, write) => write(usageErrorText(command, text)),
    })
    .configureHelp({
      // Commander shows the help "as an error" only when a command that needs a subcommand has none.
      prepareContext(this: Help, context) {
        errorContext = context.error === true;
        Help.prototype.prepareContext.call(this, context);
      },
      formatHelp: (cmd, helper) => (errorContext ? missingCommandText(cmd) : Help.prototype.formatHelp.call(helper, cmd, helper)),
    });
}

/** `paraph keys list`, as the user types it. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Commander's parse error (`error: unknown option '--jsn'` …) as paraph words it. */
function usageErrorText(command: Command, text: string): string {
  const path = commandPath(command);
  const what = text
    .trim()
    .replace(/^error: /, '')
    .replace(/\s*\(Did you mean (.+)\?\)$/, ' (did you mean $1?)');
  // A negative duration looks like an option to the parser.
  const negative = /^unknown option '(-\d[^']*)'$/.exec(what);
  if (negative?.[1] && command.registeredArguments.some((argument) => argument.name() === 'duration')) {
    return `${path}: ${durationMistake(negative[1])}.\n`;
  }
  return `${path}: ${what}\nRun \`${path} --help\` for its ${command.commands.length > 0 ? 'commands' : 'arguments and options'}.\n`;
}

/** `paraph` or `paraph keys` alone: which commands there are, and where to read more. */
function missingCommandText(command: Command): string {
  const path = commandPath(command);
  const names = command.commands.filter((sub) => sub.name() !== 'help').map((sub) => sub.name());
  if (command.parent) {
    return `${path}: a command is needed: ${names.join(', ')}.\nRun \`${path} --help\` for what each one does.\n`;
  }
  return [
    `Usage: ${path} <command> [options]`,
    `Commands: ${names.join(', ')}.`,
    `Start the sandbox with \`${path} serve\`; run \`${path} --help\` for what each command does, \`${path} <command> --help\` for one.`,
    '',
  ].join('\n');
}
