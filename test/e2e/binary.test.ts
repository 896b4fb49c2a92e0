// Every line: the real binary: serve, the CLI, signals and a clean shutdown.
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, paraph, serveProcess } from '../helpers/cli.js';
import { useTmpDir } from '../helpers/server.js';

const CONTRACT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/contract.pdf');

test('the real binary: serve, a key made by the CLI, the API, revocation, clean shutdown', async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir, '--log-level', 'debug']);
  const { ready } = serve;
  assert.equal(ready.status, 'ready');
  assert.equal(ready.data_dir, dataDir);
  assert.match(ready.api_key ?? '', /^paraph_test_[0-9A-Za-z]{40,}$/);
  assert.match(ready.webhook_secret ?? '', /^whsec_[A-Za-z0-9+/]{43}=$/);
  const api = ready.api_url as string;
  assert.equal((await fetch(api.replace(/\/v1$/, '/healthz'))).status, 200);

  const made = await paraph(['keys', 'create', '--json', '--data-dir', dataDir]);
  assert.equal(made.code, 0, made.stderr);
  const key = JSON.parse(made.stdout) as { account_id: string; key_id: string; api_key: string; webhook_secret: string };
  assert.deepEqual(Object.keys(key).sort(), ['account_id', 'api_key', 'key_id', 'webhook_secret']);
  assert.notEqual(key.account_id, ready.account_id);

  const form = new FormData();
  form.append('document', new Blob([fs.readFileSync(CONTRACT)], { type: 'application/pdf' }), 'contract.pdf');
  form.append(
    'request',
    JSON.stringify({
      client_reference: 'e2e-1',
      signers: [{ reference: 'client', email: 'client@example.com', order: 1 }],
      fields: [{ signer_reference: 'client', type: 'signature', page: 2, x: 72, y: 600, width: 180, height: 40 }],
    }),
  );
  const created = await fetch(`${api}/signature-requests`, { method: 'POST', headers: { authorization: `Bearer ${key.api_key}` }, body: form });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  const got = await fetch(`${api}/signature-requests/${id}`, { headers: { authorization: `Bearer ${key.api_key}` } });
  assert.equal(got.status, 200);
  // The first key belongs to another account: it does not see the request.
  assert.equal((await fetch(`${api}/signature-requests/${id}`, { headers: { authorization: `Bearer ${ready.api_key}` } })).status, 404);

  const listed = await paraph(['keys', 'list', '--json', '--data-dir', dataDir]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal((JSON.parse(listed.stdout) as unknown[]).length, 2);
  assert.doesNotMatch(listed.stdout, new RegExp(`${key.api_key}|${key.webhook_secret.replace(/[+/=]/g, '.')}`));
  const table = await paraph(['keys', 'list', '--data-dir', dataDir]);
  assert.match(table.stdout, new RegExp(key.key_id));
  assert.match(table.stdout, new RegExp(`${key.api_key.slice(-4)}`));

  const revoked = await paraph(['keys', 'revoke', key.key_id, '--data-dir', dataDir]);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.equal((await fetch(`${api}/signature-requests`, { headers: { authorization: `Bearer ${key.api_key}` } })).status, 401);
  const again = await paraph(['keys', 'revoke', key.key_id, '--data-dir', dataDir]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already revoked/);

  // A token-like URL and a bad key must not reach the log, even at debug level.
  await fetch(`${api}/sign/tok_${'s'.repeat(40)}`);
  await fetch(`${api}/signature-requests`, { headers: { authorization: `Bearer ${ready.api_key}x` } });
  assert.equal(await serve.stop('SIGTERM'), 0);
  const log = serve.stderr();
  for (const secret of [ready.api_key, ready.webhook_secret, key.api_key, key.webhook_secret, 'tok_sss']) {
    assert.ok(!log.includes(secret as string), `the log contains a secret: ${secret?.slice(0, 10)}`);
  }
});

test('--ephemeral deletes its data directory at exit; SIGINT stops it too', async (t) => {
  const serve = await serveProcess(t, ['--ephemeral']);
  const dir = serve.ready.data_dir as string;
  assert.ok(fs.existsSync(path.join(dir, 'paraph.db')));
  assert.equal(await serve.stop('SIGINT'), 0);
  assert.equal(fs.existsSync(dir), false);
});

test('usage errors exit 2, failures exit 1, with the message on stderr', async (t) => {
  const dataDir = useTmpDir(t);
  const badPort = await paraph(['serve', '--port', 'abc', '--data-dir', dataDir]);
  assert.equal(badPort.code, 2);
  assert.match(badPort.stderr, /--port/);
  assert.equal((await paraph(['no-such-command'])).code, 2);
  assert.equal((await paraph(['keys', 'revoke'])).code, 2);
  const help = await paraph(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /serve/);
  const busy = await serveProcess(t, ['--data-dir', dataDir]);
  const unknown = await paraph(['keys', 'revoke', '00000000-0000-4000-8000-000000000000', '--data-dir', dataDir]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /API key .*does not exist/);
  const port = new URL(busy.ready.api_url as string).port;
  const clash = await paraph(['serve', '--port', port, '--smtp-port', '0', '--data-dir', useTmpDir(t)]);
  assert.equal(clash.code, 1);
  assert.match(clash.stderr, /address already in use: .*\(choose another --port, or 0 for a free one\)/);
  await busy.stop();
});

test('a first start that fails on a busy HTTP or SMTP port creates no key: the next start shows it', async (t) => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.after(() => blocker.close());
  const busyPort = String((blocker.address() as net.AddressInfo).port);
  for (const flag of ['--port', '--smtp-port']) {
    const dataDir = useTmpDir(t);
    const other = flag === '--port' ? '--smtp-port' : '--port';
    const failed = await paraph(['serve', flag, busyPort, other, '0', '--data-dir', dataDir, '--json']);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /already in use/);
    const keys = await paraph(['keys', 'list', '--json', '--data-dir', dataDir]);
    assert.deepEqual(JSON.parse(keys.stdout), [], `${flag}: no key after the failed start`);
    const serve = await serveProcess(t, ['--data-dir', dataDir]);
    assert.match(serve.ready.api_key ?? '', /^paraph_test_/, `${flag}: the next start shows the first key`);
    assert.equal(await serve.stop(), 0);
  }
});

test('a data directory that cannot be made or used: exit 1 at once, with a message naming --data-dir', async (t) => {
  const tmp = useTmpDir(t);
  const file = path.join(tmp, 'a-file');
  fs.writeFileSync(file, 'not a directory');
  // [data directory, what serve says, what the other commands (which never create one) say]
  const cases: Array<[string, RegExp, RegExp]> = [
    // procfs answers ENOENT to mkdir, on which a recursive mkdir loops forever.
    ['/proc/paraph-data', /cannot be created/, /does not exist/],
    [file, /exists and is not a directory/, /exists and is not a directory/],
    [path.join(file, 'sub'), /a part of the path is not a directory/, /a part of the path is not a directory/],
  ];
  for (const [dataDir, forServe, forCli] of cases) {
    for (const [args, reason] of [
      [['serve', '--port', '0', '--smtp-port', '0'], forServe],
      [['keys', 'list'], forCli],
    ] as const) {
      const run = spawnSync(process.execPath, [BIN, ...args, '--data-dir', dataDir], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.signal, null, `${args[0]} --data-dir ${dataDir} did not stop by itself`);
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`data directory ${dataDir.replace(/[/.]/g, '\\$&')} \\(--data-dir\\)`));
      assert.match(run.stderr, reason);
      assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
    }
  }
});

test('a --host or PARAPH_HOST that is not an address of this machine, a port this user may not bind: exit 2 naming it, no data directory left', async (t) => {
  const tmp = useTmpDir(t);
  const dataDir = path.join(tmp, 'new', 'data');
  // Root may bind ports below 1024: the port cases then run without that right (setpriv), where setpriv exists.
  const privilegedBelow = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8').trim());
  const root = process.getuid?.() === 0;
  const withoutBindRight = root ? ['setpriv', '--bounding-set', '-net_bind_service', '--inh-caps', '-net_bind_service'] : [];
  const portsDenied = privilegedBelow > 80 && (!root || spawnSync('setpriv', ['--version']).status === 0);
  // [options, environment, what stderr must say]: free ports unless the case names one.
  const cases: Array<[string[], Record<string, string>, RegExp]> = [
    [['--host', '999.1.1.1'], {}, /^paraph: --host must be an address of this machine, got 999\.1\.1\.1: .*Use 127\.0\.0\.1/],
    [[], { PARAPH_HOST: '999.1.1.1' }, /^paraph: PARAPH_HOST must be .*got 999\.1\.1\.1.*\(from the environment: fix or unset PARAPH_HOST, or pass --host\)/],
    [['--host', '192.0.2.1'], {}, /^paraph: --host must be an address of this machine, got 192\.0\.2\.1: it is not an address of this machine/],
    [['--host', 'fe80::1'], {}, /^paraph: --host must be an address of this machine, got fe80::1: /],
  ];
  if (portsDenied) {
    cases.push(
      [['--port', '80'], {}, /^paraph: --port must be a port this user may listen on, got 80: .*Choose a port from 1024 up, or 0 for a free one/],
      [
        [],
        { PARAPH_SMTP_PORT: '25' },
        /^paraph: PARAPH_SMTP_PORT must be .*got 25.*\(from the environment: fix or unset PARAPH_SMTP_PORT, or pass --smtp-port\)/,
      ],
    );
  }
  for (const [options, env, says] of cases) {
    const ports = [...(options.includes('--port') ? [] : ['--port', '0']), ...(env.PARAPH_SMTP_PORT ? [] : ['--smtp-port', '0'])];
    const wrap = options.includes('--port') || env.PARAPH_SMTP_PORT ? withoutBindRight : [];
    const [command, ...args] = [...wrap, process.execPath, BIN, 'serve', '--data-dir', dataDir, '--json', ...ports, ...options];
    const run = spawnSync(command as string, args, { encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...env } });
    const what = `${options.join(' ')} ${JSON.stringify(env)}`;
    assert.equal(run.status, 2, `${what}: ${run.stderr}`);
    assert.match(run.stderr, says, what);
    assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
    assert.equal(run.stdout, '', what);
    assert.equal(fs.existsSync(path.join(tmp, 'new')), false, `${what}: the directories this start made are gone`);
  }
});
