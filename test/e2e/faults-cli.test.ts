import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, paraph, serveProcess } from '../helpers/cli.js';
import { useTmpDir } from '../helpers/server.js';

test('paraph faults add, list and clear work on the data directory of a running serve', async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir]);
  const api = apiClient(serve.ready.api_url as string, serve.ready.api_key as string);
  const cli = (...args: string[]) => paraph([...args, '--data-dir', dataDir]);
  // The server reads the (empty) rules once before the CLI writes any.
  assert.equal((await api('GET', '/signature-requests')).status, 200);

  const added = await cli('faults', 'add', 'api', '--method', 'GET', '--path', '/v1/signature-requests', '--status', '503', '--count', '2', '--json');
  assert.equal(added.code, 0, added.stderr);
  const rule = JSON.parse(added.stdout) as { id: string; target: string; count: number; fired: number };
  assert.deepEqual({ target: rule.target, count: rule.count, fired: rule.fired }, { target: 'api', count: 2, fired: 0 });
  // The running server sees the rule at the next call.
  const refused = await api('GET', '/signature-requests');
  assert.equal(refused.status, 503);
  assert.equal(refused.body.error.code, 'temporarily_unavailable');
  // The sandbox controls are never faulted, and show what the CLI wrote.
  const listed = await api('GET', '/_sandbox/faults');
  assert.deepEqual(
    listed.body.data.map((r: { id: string; fired: number }) => [r.id, r.fired]),
    [[rule.id, 1]],
  );

  const json = await cli('faults', 'add', '{"target":"mail","count":3}');
  assert.equal(json.code, 0, json.stderr);
  assert.match(json.stdout, /^Added fault rule [0-9a-f-]{36}: mails fail to send, the next 3 times\./);

  const table = await cli('faults', 'list');
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^ID +ACCOUNT +RULE +FIRED +CREATED/);
  assert.match(table.stdout, new RegExp(`${rule.id} +${serve.ready.account_id} +GET /v1/signature-requests: answered 503 +1/2`));
  assert.match(table.stdout, /mails fail to send +0\/3/);
  const listJson = JSON.parse((await cli('faults', 'list', '--json', '--account', serve.ready.account_id as string)).stdout) as unknown[];
  assert.equal(listJson.length, 2);

  // Bad usage: exit 2 with the rule's mistake.
  const bad = await cli('faults', 'add', 'api', '--path', '/v1/templates');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--status or --delay is required/);
  const wrongTarget = await cli('faults', 'add', 'mail', '--path', '/v1/templates');
  assert.equal(wrongTarget.code, 2);
  assert.match(wrongTarget.stderr, /--path does not apply to mail rules/);

  const one = await cli('faults', 'clear', rule.id);
  assert.equal(one.code, 0, one.stderr);
  assert.equal(one.stdout.trim(), `Removed fault rule ${rule.id}.`);
  assert.equal((await api('GET', '/signature-requests')).status, 200);
  const again = await cli('faults', 'clear', rule.id);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /does not exist/);
  const all = await cli('faults', 'clear', '--json');
  assert.deepEqual(JSON.parse(all.stdout), { removed: 1 });
  assert.equal((await cli('faults', 'list')).stdout.trim(), "No fault rules. Add one with: paraph faults add api --path '*' --status 503");

  // With two accounts, `add` needs to be told which.
  assert.equal((await cli('keys', 'create')).code, 0);
  const ambiguous = await cli('faults', 'add', 'mail');
  assert.equal(ambiguous.code, 2);
  assert.match(ambiguous.stderr, /several accounts: name one with --account ID/);
  // The server logged each firing, without the key.
  assert.match(serve.stderr(), /sandbox fault fired/);
  assert.ok(!serve.stderr().includes(serve.ready.api_key as string));
});
