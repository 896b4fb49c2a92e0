import type { Argument, Command, Option } from 'commander';
import { buildProgram } from './index.js';
import { commandPath } from './usage.js';

/** Where the reference is kept, and the command that rewrites it from the definitions. */
export const REFERENCE_FILE = 'docs/cli.md';
export const REGENERATE = 'scripts/with-node.sh 24 npm run docs:cli';

/**
 * The CLI reference (docs/cli.md), written from the commander definitions themselves: every command,
 * its arguments and options as `--help` shows them, and the exit codes. A test compares the file with
 * this, so the two cannot drift apart.
 */
export async function cliReference(): Promise<string> {
  const program = await buildProgram({ out: () => {}, err: () => {} }, {});
  const commands = walk(program).slice(1);
  const lines = [
    '# paraph command line',
    '',
    `<!-- Written by \`${REGENERATE}\` from the command definitions in src/cli/; do not edit by hand. -->`,
    '',
    `\`${commandPath(program)} <command> [options]\`. ${sentence(program.description())}`,
    '`paraph --help` and `paraph <command> --help` print the same descriptions in the terminal.',
    '',
    ...optionTable(program.options),
    '## Exit codes',
    '',
    '| code | meaning |',
    '|---|---|',
    '| 0 | success |',
    '| 1 | an error; the message on stderr says what went wrong and what to do next |',
    '| 2 | bad usage: no command, an unknown command or option, a missing or invalid argument, or a bad value of an option or of its environment variable |',
    '',
    'Every command but `serve`, `listen` and `trigger` needs an existing data directory (`--data-dir`, env',
    '`PARAPH_DATA_DIR`, default `./.paraph`): only `paraph serve` creates one. `paraph listen` and `paraph trigger`',
    'talk to a running server over HTTP (`--api`, `--key`) instead.',
    '',
    '## Commands',
    '',
    ...commands.filter((c) => !isGroup(c)).map((c) => `- [\`${commandPath(c)}\`](#${anchor(c)}): ${c.description()}`),
    '',
    ...commands.flatMap(section),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

function walk(command: Command): Command[] {
  return [command, ...command.commands.flatMap(walk)];
}

const isGroup = (command: Command) => command.commands.length > 0;

function section(command: Command): string[] {
  const path = commandPath(command);
  if (isGroup(command)) {
    return [`## \`${path}\``, '', sentence(command.description()), ''];
  }
  return [
    `${command.parent?.parent ? '###' : '##'} \`${path}\``,
    '',
    sentence(command.description()),
    '',
    '```',
    `${path} ${command.usage()}`,
    '```',
    '',
    ...argumentTable(command.registeredArguments),
    ...optionTable(command.options),
  ];
}

function argumentTable(args: readonly Argument[]): string[] {
  if (args.length === 0) return [];
  const rows = args.map((a) => {
    const name = a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`;
    return `| \`${name}\` | ${cell(a.description || (a.required ? 'required' : 'optional'))} |`;
  });
  return ['| argument | meaning |', '|---|---|', ...rows, ''];
}

function optionTable(options: readonly Option[]): string[] {
  const shown = options.filter((o) => !o.hidden);
  if (shown.length === 0) return [];
  const rows = shown.map((o) => {
    const choices = o.argChoices ? ` (one of: ${o.argChoices.map((c) => `\`${c}\``).join(', ')})` : '';
    return `| \`${o.flags}\` | ${cell(o.description)}${choices} |`;
  });
  return ['| option | meaning |', '|---|---|', ...rows, ''];
}

/** The heading anchor GitHub makes of "`paraph keys create`". */
function anchor(command: Command): string {
  return commandPath(command).replace(/\s+/g, '-').toLowerCase();
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}${/[.!?)]$/.test(trimmed) ? '' : '.'}`;
}
