import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/index.js';
import { cliReference, REFERENCE_FILE, REGENERATE } from '../../src/cli/reference.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('docs/cli.md is what the command definitions produce', async () => {
  const file = path.join(root, REFERENCE_FILE);
  const written = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '(missing)';
  assert.ok(written === (await cliReference()), `${REFERENCE_FILE} differs from the commands in src/cli/: run \`${REGENERATE}\` and commit it`);
});

test('the reference has every command, argument and option, and the exit codes', async () => {
  const reference = await cliReference();
  const walk = (command: Command): Command[] => [command, ...command.commands.flatMap(walk)];
  const commands = walk(await buildProgram({ out: () => {}, err: () => {} }, {})).slice(1);
  const pathOf = (c: Command): string => (c.parent ? `${pathOf(c.parent)} ${c.name()}` : c.name());
  assert.ok(commands.length >= 18, `only ${commands.length} commands found`);
  for (const command of commands) {
    assert.ok(reference.includes(`## \`${pathOf(command)}\``), `no section for ${pathOf(command)}`);
    for (const argument of command.registeredArguments) {
      const shown = argument.required ? `<${argument.name()}>` : `[${argument.name()}]`;
      assert.ok(reference.includes(shown), `${pathOf(command)} ${shown}`);
    }
    for (const option of command.options) assert.ok(reference.includes(`| \`${option.flags}\` | ${option.description}`), `${pathOf(command)} ${option.flags}`);
  }
  // The typed signature of `paraph sign`, which the README's table once left out.
  assert.match(reference, /## `paraph sign`[\s\S]*\| `--signature <text>` \| the typed signature/);
  assert.match(reference, /\| `-V, --version` \|/);
  assert.match(reference, /\| 2 \| bad usage/);
});
