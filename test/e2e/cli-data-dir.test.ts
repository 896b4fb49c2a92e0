// The data directory as the real binary finds it: only serve creates one; every other command needs
// an existing one, and every failure is one message naming the directory and how it was chosen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BIN, paraph, serveProcess } from '../helpers/cli.js';
import { useTmpDir } from '../helpers/server.js';

const ID = '00000000-0000-4000-8000-000000000000';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Every command that works on a data directory, except serve (and sign, which needs a server). */
const COMMANDS = [
  ['keys', 'list'],
  ['keys', 'create'],
  ['keys', 'revoke', ID],
  ['requests', 'list'],
  ['requests', 'show', ID],
  ['clock', 'show'],
  ['clock', 'advance', '1d'],
  ['webhooks', 'list'],
  ['webhooks', 'replay', ID],
  ['emails', 'list'],
  ['emails', 'show', ID],
  ['audit', 'verify', ID],
  ['expire', ID],
  ['purge', ID],
];

test('a command other than serve on a data directory that does not exist: exit 1, nothing created', async (t) => {
  const tmp = useTmpDir(t);
  const missing = path.join(tmp, 'typo');
  for (const args of COMMANDS) {
    const run = await paraph([...args, '--data-dir', missing], { PARAPH_DATA_DIR: '' });
    assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
    assert.equal(
      run.stderr,
      `paraph: data directory ${missing} (--data-dir) does not exist. Only \`paraph serve\` creates a data directory. ` +
        'Name the one `paraph serve` uses with --data-dir DIR (or PARAPH_DATA_DIR), or run `paraph serve` first to create it.\n',
      args.join(' '),
    );
    assert.equal(fs.existsSync(missing), false, `${args.join(' ')} created the directory`);
  }
});

test('a command other than serve on an existing directory without a paraph database: exit 1, nothing written into it', async (t) => {
  const tmp = useTmpDir(t);
  const empty = path.join(tmp, 'empty');
  const notes = path.join(tmp, 'notes');
  fs.mkdirSync(empty, { mode: 0o700 });
  fs.mkdirSync(notes, { mode: 0o700 });
  fs.writeFileSync(path.join(notes, 'notes.txt'), 'my notes\n');
  for (const dir of [empty, notes]) {
    const before = fs.readdirSync(dir);
    for (const args of COMMANDS) {
      const run = await paraph([...args, '--data-dir', dir], { PARAPH_DATA_DIR: '' });
      assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(
        run.stderr,
        `paraph: data directory ${dir} (--data-dir) holds no paraph database (paraph.db): it is not a data directory yet. ` +
          'Only `paraph serve` makes one. Name the one `paraph serve` uses with --data-dir DIR (or PARAPH_DATA_DIR), ' +
          'or run `paraph serve` on this directory first.\n',
        args.join(' '),
      );
      assert.deepEqual(fs.readdirSync(dir), before, `${args.join(' ')} wrote into ${path.basename(dir)}`);
    }
  }
  // Chosen by the environment, the message says so.
  const fromEnv = await paraph(['keys', 'create'], { PARAPH_DATA_DIR: notes });
  assert.equal(fromEnv.code, 1);
  assert.match(fromEnv.stderr, new RegExp(`^paraph: data directory ${escape(notes)} \\(PARAPH_DATA_DIR\\) holds no paraph database`));
  assert.deepEqual(fs.readdirSync(notes), ['notes.txt']);
});

test('the message names how the directory was chosen: PARAPH_DATA_DIR, or the default in the working directory', async (t) => {
  const cwd = useTmpDir(t);
  const fromEnv = await paraph(['keys', 'list'], { PARAPH_DATA_DIR: 'elsewhere' }, cwd);
  assert.equal(fromEnv.code, 1);
  assert.match(
    fromEnv.stderr,
    new RegExp(`^paraph: data directory ${escape(path.join(fs.realpathSync(cwd), 'elsewhere'))} \\(PARAPH_DATA_DIR\\) does not exist\\.`),
  );
  const byDefault = await paraph(['requests', 'list'], { PARAPH_DATA_DIR: '' }, cwd);
  assert.equal(byDefault.code, 1);
  assert.match(
    byDefault.stderr,
    new RegExp(
      `^paraph: data directory ${escape(path.join(fs.realpathSync(cwd), '.paraph'))} \\(the default \\./\\.paraph; --data-dir or PARAPH_DATA_DIR sets another\\) does not exist\\.`,
    ),
  );
  assert.match(byDefault.stderr, /run `paraph serve` first to create it/);
  assert.deepEqual(fs.readdirSync(cwd), [], 'no .paraph made in the working directory');
});

test('serve creates a missing data directory (mode 0700, parents too); the other commands then use it', async (t) => {
  const dataDir = path.join(useTmpDir(t), 'new', 'data');
  const serve = await serveProcess(t, ['--data-dir', dataDir]);
  assert.equal(serve.ready.data_dir, dataDir);
  assert.equal(fs.statSync(dataDir).mode & 0o777, 0o700);
  assert.equal(await serve.stop(), 0);
  const keys = await paraph(['keys', 'list', '--json', '--data-dir', dataDir]);
  assert.equal(keys.code, 0, keys.stderr);
  assert.equal((JSON.parse(keys.stdout) as unknown[]).length, 1);
});

/** Runs the binary with a time limit: a data directory must never make it hang or spin. */
function runBounded(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });
  assert.equal(run.signal, null, `${args.join(' ')} did not stop by itself within 20 s`);
  return run;
}

test('a data directory on procfs: serve and the CLI stop at once with a message naming --data-dir', () => {
  // mkdir on procfs answers ENOENT where the parent exists: Node's recursive mkdir loops on it for ever.
  const cases: Array<[string, RegExp, RegExp]> = [
    [
      '/proc/paraph-data',
      /cannot be created here: this file system does not allow it\. Choose another directory with --data-dir \(or PARAPH_DATA_DIR\), on a disk\./,
      /does not exist/,
    ],
    ['/proc/self/paraph/data', /cannot be created here: this file system does not allow it/, /does not exist/],
    [
      '/proc/self',
      /cannot be used: this file system does not let paraph create its files there/,
      /cannot be used: this file system does not let paraph create its files there/,
    ],
  ];
  for (const [dataDir, forServe, forCli] of cases) {
    for (const [args, reason] of [
      [['serve', '--port', '0', '--smtp-port', '0'], forServe],
      [['keys', 'list'], forCli],
    ] as const) {
      const run = runBounded([...args, '--data-dir', dataDir]);
      assert.equal(run.status, 1, `${args[0]} ${dataDir}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`^paraph: data directory ${escape(dataDir)} \\(--data-dir\\) `));
      assert.match(run.stderr, reason, `${args[0]} ${dataDir}`);
      assert.doesNotMatch(run.stderr, /^\s+at |ENOENT|EACCES|ENOTDIR|EEXIST/m, 'no stack trace, no raw error code');
    }
  }
  // The same through the environment variable.
  const fromEnv = runBounded(['serve', '--port', '0', '--smtp-port', '0'], { PARAPH_DATA_DIR: '/proc/paraph-data' });
  assert.equal(fromEnv.status, 1);
  assert.match(fromEnv.stderr, /^paraph: data directory \/proc\/paraph-data \(PARAPH_DATA_DIR\) cannot be created here/);
});

test('a directory that is not a paraph data directory inside: one message naming the file, no raw error', (t) => {
  const tmp = useTmpDir(t);
  const make = (name: string, build: (dir: string) => void) => {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir, { mode: 0o700 });
    build(dir);
    return dir;
  };
  const cases: Array<[string, RegExp]> = [
    // Each with a database file, so that the CLI, which needs one, also reaches the file named.
    [
      make('key-is-a-folder', (dir) => {
        fs.writeFileSync(path.join(dir, 'paraph.db'), '');
        fs.mkdirSync(path.join(dir, 'master.key'));
      }),
      /cannot be used: master\.key is a directory, where paraph keeps a file\. This is not a paraph data directory\./,
    ],
    [
      make('blobs-is-a-file', (dir) => {
        fs.writeFileSync(path.join(dir, 'paraph.db'), '');
        fs.writeFileSync(path.join(dir, 'blobs'), 'x');
      }),
      /cannot be used: blobs is not a directory, where paraph keeps one\. This is not a paraph data directory\./,
    ],
    [
      make('db-is-text', (dir) => fs.writeFileSync(path.join(dir, 'paraph.db'), 'x'.repeat(4096))),
      /cannot be used: paraph\.db is not a paraph database\. This is not a paraph data directory\./,
    ],
    [
      make('db-is-foreign', (dir) => {
        const foreign = new Database(path.join(dir, 'paraph.db'));
        foreign.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')");
        foreign.close();
      }),
      /cannot be used: paraph\.db is another program's SQLite database \(paraph left it as it was\)\. This is not a paraph data directory\./,
    ],
    [make('db-is-a-folder', (dir) => fs.mkdirSync(path.join(dir, 'paraph.db'))), /cannot be used: paraph\.db cannot be opened for writing/],
  ];
  // A database that is not paraph's stops the start before anything is written beside it, and is left as it was.
  for (const name of ['db-is-text', 'db-is-foreign']) {
    assert.deepEqual(fs.readdirSync(path.join(tmp, name)), ['paraph.db'], name);
  }
  const foreign = new Database(path.join(tmp, 'db-is-foreign', 'paraph.db'), { readonly: true });
  assert.deepEqual(foreign.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all(), ['notes']);
  assert.equal(foreign.pragma('journal_mode', { simple: true }), 'delete');
  assert.deepEqual(foreign.prepare('SELECT body FROM notes').pluck().all(), ['keep me']);
  foreign.close();
  const link = path.join(tmp, 'dangling');
  fs.symlinkSync(path.join(tmp, 'gone'), link);
  for (const [dataDir, reason] of cases) {
    for (const args of [
      ['serve', '--port', '0', '--smtp-port', '0'],
      ['keys', 'list'],
    ]) {
      const run = runBounded([...args, '--data-dir', dataDir]);
      assert.equal(run.status, 1, `${args[0]} ${dataDir}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`^paraph: data directory ${escape(dataDir)} \\(--data-dir\\) `));
      assert.match(run.stderr, reason, `${args[0]} ${dataDir}`);
      assert.match(run.stderr, /[Cc]hoose another directory with --data-dir/);
      assert.doesNotMatch(run.stderr, /^\s+at |EISDIR|ENOTDIR|EEXIST|SQLITE_/m, 'no stack trace, no raw error code');
    }
  }
  const dangling = runBounded(['serve', '--port', '0', '--smtp-port', '0', '--data-dir', link]);
  assert.equal(dangling.status, 1, dangling.stderr);
  assert.match(dangling.stderr, new RegExp(`cannot be created: ${escape(link)} is a symbolic link to nothing\\. Remove the link, or choose another directory`));
});

test('a start whose writes fail once its ports are bound: exit 1 with the message, its ports closed, nothing left running', async (t) => {
  const dataDir = path.join(useTmpDir(t), 'data');
  const first = await serveProcess(t, ['--data-dir', dataDir]);
  assert.equal(await first.stop(), 0);
  // The database refuses the server's URL, which a start records once it listens (as a full disk would).
  const db = new Database(path.join(dataDir, 'paraph.db'));
  db.exec(`
    CREATE TRIGGER refuse_server_url_insert BEFORE INSERT ON settings WHEN NEW.key = 'server_url' BEGIN SELECT RAISE(ABORT, 'the server URL is refused'); END;
    CREATE TRIGGER refuse_server_url_update BEFORE UPDATE ON settings WHEN NEW.key = 'server_url' BEGIN SELECT RAISE(ABORT, 'the server URL is refused'); END;
  `);
  db.close();
  const run = runBounded(['serve', '--port', '0', '--smtp-port', '0', '--json', '--data-dir', dataDir]);
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /^paraph: the server URL is refused\n$/);
  assert.equal(run.stdout, '', 'no ready line');
  assert.equal(fs.existsSync(path.join(dataDir, 'serve.lock')), false, 'the lock is released');
});

test('a blobs folder this user may not write: serve stops at once naming it, instead of failing every upload', async (t) => {
  const dataDir = path.join(useTmpDir(t), 'data');
  const first = await serveProcess(t, ['--data-dir', dataDir]);
  assert.equal(await first.stop(), 0);
  fs.chmodSync(path.join(dataDir, 'blobs'), 0o500);
  // Root writes anywhere: it runs without that right (setpriv), where setpriv exists.
  const root = process.getuid?.() === 0;
  if (root && spawnSync('setpriv', ['--version']).status !== 0) return t.skip('root without setpriv cannot drop its right to write anywhere');
  const wrap = root ? ['setpriv', '--bounding-set', '-all', '--inh-caps', '-all'] : [];
  const [command, ...args] = [...wrap, process.execPath, BIN, 'serve', '--port', '0', '--smtp-port', '0', '--data-dir', dataDir];
  const run = spawnSync(command as string, args, { encoding: 'utf8', timeout: 20_000 });
  assert.equal(run.status, 1, run.stderr);
  assert.match(
    run.stderr,
    new RegExp(`^paraph: data directory ${escape(dataDir)} \\(--data-dir\\) cannot be used: blobs is not readable and writable by this user\\.`),
  );
});

test('--ephemeral with an unusable TMPDIR names it and exits 1; a relative TMPDIR gives an absolute data_dir; a deleted working directory is one message', async (t) => {
  const tmp = useTmpDir(t);
  const file = path.join(tmp, 'a-file');
  fs.writeFileSync(file, 'not a directory');
  for (const [tmpdir, says] of [
    // On procfs, Node's compile cache would never return: paraph does without it there.
    ['/proc', /cannot be created here: this file system does not allow it/],
    [file, /cannot be created: a part of the path is not a directory/],
  ] as const) {
    // (Without the test runner's own compile cache: Node's default one is in TMPDIR.)
    const { NODE_COMPILE_CACHE: _, ...env } = process.env;
    const run = spawnSync(process.execPath, [BIN, 'serve', '--ephemeral', '--port', '0', '--smtp-port', '0'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...env, TMPDIR: tmpdir },
    });
    assert.equal(run.signal, null, `TMPDIR=${tmpdir}: serve did not stop by itself within 20 s`);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, new RegExp(`^paraph: data directory ${escape(tmpdir)}/paraph-XXXXXX \\(--ephemeral, in TMPDIR\\) `));
    assert.match(run.stderr, says);
    assert.match(run.stderr, /Point TMPDIR to a directory this user may write, or give a data directory with --data-dir\.\n$/);
  }
  fs.mkdirSync(path.join(tmp, 'relative'));
  const serve = await serveProcess(t, ['--ephemeral'], { cwd: tmp, env: { TMPDIR: 'relative' } });
  assert.equal(serve.ready.data_dir, path.join(fs.realpathSync(tmp), 'relative', path.basename(serve.ready.data_dir as string)));
  assert.equal(await serve.stop(), 0);

  const gone = path.join(tmp, 'gone');
  fs.mkdirSync(gone);
  const run = spawnSync('sh', ['-c', `cd "$1" && rmdir "$1" && exec "$2" "$3" --help`, 'sh', gone, process.execPath, BIN], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(run.status, 1, run.stderr);
  assert.equal(run.stderr, 'paraph: the current directory no longer exists (deleted or moved): cd to an existing directory and run paraph again\n');
});
