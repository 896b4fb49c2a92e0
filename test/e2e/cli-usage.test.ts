// Every line: the CLI's argument parsing and exit codes.
// Bad usage of the real binary: what a newcomer sees when a command, option or value is wrong. Each
// mistake is one or two lines on stderr saying what is wrong and where the help is, and exit code 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { paraph } from '../helpers/cli.js';
import { useTmpDir } from '../helpers/server.js';

const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
const lines = (text: string) => text.trimEnd().split('\n');

test('paraph alone: a short usage on stderr and exit 2', async (t) => {
  const cwd = useTmpDir(t);
  const run = await paraph([], {}, cwd);
  assert.equal(run.code, 2, run.stderr);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /^Usage: paraph <command> \[options\]\n/);
  assert.match(run.stderr, /Commands: serve, keys, requests, clock, webhooks, emails, faults, sign, listen, trigger, audit, dashboard, expire, purge\./);
  assert.match(run.stderr, /`paraph serve`/);
  assert.match(run.stderr, /`paraph --help`/);
  assert.ok(lines(run.stderr).length <= 4, run.stderr);
  assert.deepEqual(fs.readdirSync(cwd), [], 'nothing created');
});

test('a command group without its command: the commands it has, exit 2', async () => {
  const run = await paraph(['keys']);
  assert.equal(run.code, 2, run.stderr);
  assert.equal(run.stdout, '');
  assert.equal(run.stderr, 'paraph keys: a command is needed: create, list, revoke.\nRun `paraph keys --help` for what each one does.\n');
  const clock = await paraph(['clock']);
  assert.equal(clock.code, 2);
  assert.match(clock.stderr, /^paraph clock: a command is needed: show, advance\./);
});

test('parser errors: what is wrong and where the help is, in two lines, exit 2', async (t) => {
  const cwd = useTmpDir(t);
  const cases: Array<[string[], string]> = [
    [
      ['keys', 'list', '--jsn'],
      "paraph keys list: unknown option '--jsn' (did you mean --json?)\nRun `paraph keys list --help` for its arguments and options.\n",
    ],
    [['keys', 'revoke'], "paraph keys revoke: missing required argument 'key_id'\nRun `paraph keys revoke --help` for its arguments and options.\n"],
    [
      ['requests', 'list', '--status', 'done'],
      "paraph requests list: option '--status <status>' argument 'done' is invalid. Allowed choices are prepared, active, completed, declined, cancelled, expired, purged.\nRun `paraph requests list --help` for its arguments and options.\n",
    ],
    [['serve', '--port'], "paraph serve: option '--port <port>' argument missing\nRun `paraph serve --help` for its arguments and options.\n"],
    [
      ['emails', 'list', 'extra'],
      "paraph emails list: too many arguments for 'list'. Expected 0 arguments but got 1.\nRun `paraph emails list --help` for its arguments and options.\n",
    ],
    [['serv'], "paraph: unknown command 'serv' (did you mean serve?)\nRun `paraph --help` for its commands.\n"],
  ];
  for (const [args, expected] of cases) {
    const run = await paraph(args, {}, cwd);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.equal(run.stdout, '', args.join(' '));
    assert.equal(run.stderr, expected, args.join(' '));
  }
  assert.deepEqual(fs.readdirSync(cwd), [], 'no data directory made');
});

test('clock advance with a negative duration says the clock only moves forward, exit 2', async (t) => {
  const cwd = useTmpDir(t);
  for (const args of [
    ['clock', 'advance', '-1d'],
    ['clock', 'advance', '--', '-1d'],
  ]) {
    const run = await paraph(args, {}, cwd);
    assert.equal(run.code, 2, run.stderr);
    assert.doesNotMatch(run.stderr, /unknown option/);
    assert.match(run.stderr, /the sandbox clock only moves forward, so "-1d" cannot be a duration/, args.join(' '));
    assert.match(run.stderr, /give a positive whole number with s, m, h, d or w \(90s, 2h, 11d, 1w\), or several combined \(1d12h\)/);
    assert.equal(lines(run.stderr).length, 1, run.stderr);
  }
  for (const bad of ['0s', 'soon', '1.5h']) {
    const run = await paraph(['clock', 'advance', bad], {}, cwd);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`"${bad.replace('.', '\\.')}" is not a duration: give a positive whole number`));
  }
  assert.deepEqual(fs.readdirSync(cwd), [], 'no data directory made');
});

test('clock advance refuses more than ten years at a time, as HTTP and the dashboard do, exit 2', async (t) => {
  const cwd = useTmpDir(t);
  for (const far of ['3651d', '522w']) {
    const run = await paraph(['clock', 'advance', far], {}, cwd);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`"${far}" is more than ten years: advance the clock by at most 3650d at a time`));
  }
  assert.deepEqual(fs.readdirSync(cwd), [], 'no data directory made');
});

test('--version and -V print the version, exit 0', async () => {
  const { version } = JSON.parse(fs.readFileSync(PACKAGE, 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const run = await paraph([flag]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `${version}\n`);
    assert.equal(run.stderr, '');
  }
});

test('a command loads its own code: `paraph keys --help` a fraction of what `paraph --help` loads, `--version` alone next to none', async () => {
  // Counts the bytes of the built modules (dist/) the process loads, on stderr at its exit.
  const hook = [
    "import { registerHooks } from 'node:module'; import { statSync } from 'node:fs'; let bytes = 0;",
    "registerHooks({ load(url, context, next) { if (url.includes('/dist/')) bytes += statSync(new URL(url)).size; return next(url, context); } });",
    "process.on('exit', () => process.stderr.write(`loaded ${bytes}\\n`));",
  ].join(' ');
  const loaded = async (args: string[]) => {
    const run = await paraph(args, { NODE_OPTIONS: `--import data:text/javascript,${encodeURIComponent(hook)}` });
    assert.equal(run.code, 0, run.stderr);
    const bytes = Number(/^loaded (\d+)$/m.exec(run.stderr)?.[1]);
    assert.ok(bytes > 0, `${args.join(' ')}: ${run.stderr}`);
    return bytes;
  };
  const every = await loaded(['--help']);
  const keys = await loaded(['keys', '--help']);
  const version = await loaded(['--version']);
  assert.ok(every > 1_000_000, `paraph --help loaded ${every} bytes`);
  assert.ok(keys < 0.4 * every, `paraph keys --help loaded ${keys} bytes of the ${every} paraph --help loads`);
  assert.ok(version < 0.1 * every, `paraph --version loaded ${version} bytes of the ${every} paraph --help loads`);
});

test('an empty --data-dir is a bad option (exit 2), never the working directory', async (t) => {
  const cwd = useTmpDir(t);
  for (const args of [
    ['serve', '--port', '0', '--smtp-port', '0', '--data-dir', ''],
    ['keys', 'list', '--data-dir', ' '],
  ]) {
    const result = await paraph(args, {}, cwd);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, /^paraph: --data-dir needs a directory, got an empty value/, args.join(' '));
    assert.deepEqual(fs.readdirSync(cwd), [], `${args.join(' ')} wrote nothing in the working directory`);
  }
});

test('--ephemeral with --data-dir is a bad option (exit 2): the directory named is neither used nor deleted', async (t) => {
  const dataDir = useTmpDir(t);
  fs.writeFileSync(path.join(dataDir, 'keep.txt'), 'mine');
  for (const [args, env, by] of [
    [['serve', '--ephemeral', '--port', '0', '--smtp-port', '0', '--data-dir', dataDir], {}, '--ephemeral'],
    [['serve', '--port', '0', '--smtp-port', '0', '--data-dir', dataDir], { PARAPH_EPHEMERAL: '1' }, 'PARAPH_EPHEMERAL=1'],
  ] as const) {
    const result = await paraph([...args], env);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.equal(
      result.stderr,
      `paraph: --data-dir cannot be used with ${by}, which makes a throwaway data directory of its own and deletes it at exit: drop ${by} to keep the data in ${dataDir}, or drop --data-dir\n`,
    );
  }
  assert.deepEqual(fs.readdirSync(dataDir), ['keep.txt']);
});

test('a bad value in the environment names the variable, not the option', async (t) => {
  const dataDir = useTmpDir(t);
  const port = await paraph(['serve', '--data-dir', dataDir], { PARAPH_PORT: 'abc' });
  assert.equal(port.code, 2, port.stderr);
  assert.equal(
    port.stderr,
    'paraph: PARAPH_PORT must be a port number from 0 to 65535, got "abc" (from the environment: fix or unset PARAPH_PORT, or pass --port)\n',
  );
  const level = await paraph(['serve', '--data-dir', dataDir], { PARAPH_LOG_LEVEL: 'loud' });
  assert.equal(level.code, 2, level.stderr);
  assert.match(level.stderr, /^paraph: PARAPH_LOG_LEVEL must be one of fatal, error, warn, info, debug, silent, got "loud"/);
  // The option wins over its variable, and a bad option is named as the option.
  const flag = await paraph(['serve', '--port', 'x', '--data-dir', dataDir], { PARAPH_PORT: '4010' });
  assert.equal(flag.code, 2);
  assert.equal(flag.stderr, 'paraph: --port must be a port number from 0 to 65535, got "x"\n');
  assert.deepEqual(fs.readdirSync(dataDir), [], 'serve stopped before touching the data directory');
});
