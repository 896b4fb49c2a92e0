import { Command } from 'commander';
import type { Env } from '../platform/config.js';
import { createApiKey } from '../features/keys/create-api-key.js';
import { listApiKeys } from '../features/keys/list-api-keys.js';
import { revokeApiKey } from '../features/keys/revoke-api-key.js';
import { withContext } from './data-dir-context.js';
import { printJson, printTable, type Io } from './output.js';
import { dataDirOption } from './options.js';

export function keysCommand(io: Io, env: Env): Command {
  const keys = new Command('keys').description('create, list and revoke API keys');

  keys
    .command('create')
    .description('create an API key with its webhook secret (in a new account unless --account is given)')
    .option('--account <id>', 'add the key to this existing account')
    .option('--json', 'print {account_id, key_id, api_key, webhook_secret} as JSON')
    .addOption(dataDirOption())
    .action(async (opts: { account?: string; json?: boolean; dataDir?: string }) => {
      const created = await withContext(opts, env, (ctx) => createApiKey(ctx, { accountId: opts.account }));
      if (opts.json) return printJson(io, created);
      io.out(
        [
          `account_id      ${created.account_id}`,
          `key_id          ${created.key_id}`,
          `api_key         ${created.api_key}`,
          `webhook_secret  ${created.webhook_secret}`,
          '',
          'The key is shown only now: paraph stores its SHA-256, not the key.',
        ].join('\n'),
      );
    });

  keys
    .command('list')
    .description('list API keys of every account (never the full key or secret)')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (opts: { json?: boolean; dataDir?: string }) => {
      const list = await withContext(opts, env, listApiKeys);
      if (opts.json) return printJson(io, list);
      if (list.length === 0) return io.out('No API keys. Create one with: paraph keys create');
      printTable(
        io,
        ['KEY ID', 'ACCOUNT', 'KEY', 'WEBHOOK SECRET', 'STATUS', 'CREATED'],
        list.map((k) => [k.key_id, k.account_id, k.api_key_hint, k.webhook_secret_hint, k.status, k.created_at]),
      );
    });

  keys
    .command('revoke')
    .description('revoke an API key: it answers 401 from then on')
    .argument('<key_id>', 'the key id shown by keys list')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (keyId: string, opts: { json?: boolean; dataDir?: string }) => {
      await withContext(opts, env, (ctx) => revokeApiKey(ctx, keyId));
      if (opts.json) return printJson(io, { key_id: keyId, status: 'revoked' });
      io.out(`Revoked API key ${keyId}.`);
    });

  return keys;
}
