// The CLI loads the module of the command its command line names, alone (src/cli/index.ts): each of
// paraph's commands must be found that way, with the definition `paraph --help` shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProgram } from '../../src/cli/index.js';

const io = { out: () => {}, err: () => {} };

test("each command named on the command line is the program's only command (or its module's), defined as in the whole program", async () => {
  const every = await buildProgram(io, {});
  const names = every.commands.map((c) => c.name());
  assert.ok(names.length >= 14, names.join(' '));
  for (const command of every.commands) {
    const program = await buildProgram(io, {}, ['node', 'paraph', command.name(), '--help']);
    const alone = program.commands.map((c) => c.name());
    assert.ok(alone.includes(command.name()), `paraph ${command.name()}: the program has ${alone.join(', ') || 'no command'}`);
    // (expire and purge share their module.)
    assert.ok(alone.length <= 2, `paraph ${command.name()} loads ${alone.join(', ')}`);
    const own = program.commands.find((c) => c.name() === command.name());
    assert.equal(own?.helpInformation(), command.helpInformation(), `paraph ${command.name()} --help`);
  }
});

test('the version alone needs no command; no command, an option first or a name that is none gets every command', async () => {
  assert.deepEqual((await buildProgram(io, {}, ['node', 'paraph', '--version'])).commands, []);
  assert.deepEqual((await buildProgram(io, {}, ['node', 'paraph', '-V'])).commands, []);
  const every = (await buildProgram(io, {})).commands.length;
  for (const argv of [[], ['--help'], ['help', 'keys'], ['kyes'], ['--version', 'keys']]) {
    assert.equal((await buildProgram(io, {}, ['node', 'paraph', ...argv])).commands.length, every, `paraph ${argv.join(' ')}`);
  }
});
