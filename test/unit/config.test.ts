import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, resolveApiClient, resolveConfig } from '../../src/platform/config.js';
import { unknownApiKey } from '../helpers/keys.js';

test('defaults follow the contract table', () => {
  const config = resolveConfig({}, {}, '/work');
  assert.deepEqual(config, {
    host: '127.0.0.1',
    port: 4010,
    dataDir: path.resolve('/work', '.paraph'),
    smtpPort: 2525,
    smtpRelay: null,
    smtpMaxMessages: 5000,
    publicUrl: null,
    allowLoopbackWebhooks: false,
    webhookTimeoutMs: 15_000,
    requestTimeoutMs: 60_000,
    rateLimit: true,
    timestamps: true,
    tsaUrl: null,
    brand: 'paraph',
    logLevel: 'warn',
  });
  assert.ok(Object.isFrozen(config));
});

test('every option has its env twin, and a flag wins over the env', () => {
  const env = {
    PARAPH_HOST: '0.0.0.0',
    PARAPH_PORT: '5000',
    PARAPH_DATA_DIR: 'data',
    PARAPH_SMTP_PORT: '0',
    PARAPH_SMTP_RELAY: 'smtp://mail.example.com:587',
    PARAPH_SMTP_MAX_MESSAGES: '10',
    PARAPH_PUBLIC_URL: 'https://sandbox.example.com/',
    WEBHOOKS_ALLOW_LOOPBACK: '1',
    PARAPH_WEBHOOK_TIMEOUT: '3',
    PARAPH_REQUEST_TIMEOUT: '20',
    PARAPH_RATE_LIMIT: 'off',
    PARAPH_TIMESTAMPS: 'off',
    PARAPH_TSA_URL: 'https://tsa.example.com/rfc3161',
    PARAPH_BRAND: 'acme',
    PARAPH_LOG_LEVEL: 'info',
  };
  const fromEnv = resolveConfig({}, env, '/srv');
  assert.deepEqual(fromEnv, {
    host: '0.0.0.0',
    port: 5000,
    dataDir: '/srv/data',
    smtpPort: 0,
    smtpRelay: 'smtp://mail.example.com:587',
    smtpMaxMessages: 10,
    publicUrl: 'https://sandbox.example.com',
    allowLoopbackWebhooks: true,
    webhookTimeoutMs: 3000,
    requestTimeoutMs: 20_000,
    rateLimit: false,
    timestamps: false,
    tsaUrl: 'https://tsa.example.com/rfc3161',
    brand: 'acme',
    logLevel: 'info',
  });
  const flagged = resolveConfig(
    { port: '0', dataDir: '/tmp/x', brand: 'other', rateLimit: 'on', timestamps: 'on', tsaUrl: 'http://tsa.example.org/' },
    env,
    '/srv',
  );
  assert.equal(flagged.timestamps, true);
  assert.equal(flagged.tsaUrl, 'http://tsa.example.org/');
  assert.equal(flagged.port, 0);
  assert.equal(flagged.dataDir, '/tmp/x');
  assert.equal(flagged.brand, 'other');
  assert.equal(flagged.rateLimit, true);
  assert.equal(resolveConfig({}, { WEBHOOKS_ALLOW_LOOPBACK: '0' }, '/').allowLoopbackWebhooks, false);
});

test('--ephemeral leaves the data directory to be made at start; --data-dir with it is a usage error', () => {
  assert.equal(resolveConfig({ ephemeral: true }, {}, '/').dataDir, null);
  assert.equal(resolveConfig({}, { PARAPH_EPHEMERAL: '1' }, '/').dataDir, null);
  // PARAPH_DATA_DIR, set for the CLI's commands, does not stand in the way of a throwaway server.
  assert.equal(resolveConfig({ ephemeral: true }, { PARAPH_DATA_DIR: '/x' }, '/').dataDir, null);
  for (const [flags, env, by] of [
    [{ ephemeral: true, dataDir: '/x' }, {}, '--ephemeral'],
    [{ dataDir: '/x' }, { PARAPH_EPHEMERAL: '1' }, 'PARAPH_EPHEMERAL=1'],
  ] as const) {
    assert.throws(
      () => resolveConfig(flags, env, '/'),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.startsWith(`--data-dir cannot be used with ${by}, which makes a throwaway data directory`) &&
        error.message.includes('/x'),
    );
  }
});

test('bad values are usage errors naming the option', () => {
  const cases: Array<[Record<string, unknown>, Record<string, string>, RegExp]> = [
    [{ port: '70000' }, {}, /--port/],
    [{ port: 'abc' }, {}, /--port/],
    [{ rateLimit: 'maybe' }, {}, /--rate-limit/],
    [{ brand: 'Acme Corp' }, {}, /--brand/],
    [{ publicUrl: 'ftp://x' }, {}, /--public-url/],
    [{ publicUrl: 'not a url' }, {}, /--public-url/],
    [{}, { WEBHOOKS_ALLOW_LOOPBACK: 'perhaps' }, /WEBHOOKS_ALLOW_LOOPBACK/],
    [{ logLevel: 'loud' }, {}, /--log-level/],
    [{ webhookTimeout: '0' }, {}, /--webhook-timeout/],
    [{ smtpRelay: 'http://mail.example.com' }, {}, /--smtp-relay/],
    [{ timestamps: 'sometimes' }, {}, /--timestamps/],
    [{ tsaUrl: 'mailto:tsa@example.com' }, {}, /--tsa-url/],
    [{ smtpMaxMessages: '0' }, {}, /--smtp-max-messages/],
    [{ webhookTimeout: '121' }, {}, /--webhook-timeout/],
    [{ smtpRelay: 'smtp://' }, {}, /--smtp-relay must be an smtp:\/\/ or smtps:\/\/ URL naming its server/],
    [{ host: '' }, {}, /--host must be an address of this machine/],
    [{ host: '224.0.0.1' }, {}, /--host must be .*; a multicast address takes no connection, got "224\.0\.0\.1"/],
    [{ host: 'ff02::1' }, {}, /--host must be .*; a multicast address takes no connection/],
    [{ host: '255.255.255.255' }, {}, /--host must be .*; a broadcast address takes no connection/],
    [{ host: '127.255.255.255' }, {}, /--host must be .*; a broadcast address takes no connection/],
    [{}, { PARAPH_HOST: '[ff02::1]' }, /PARAPH_HOST must be .*multicast.*\(from the environment: fix or unset PARAPH_HOST, or pass --host\)/],
  ];
  for (const [flags, env, message] of cases) {
    assert.throws(
      () => resolveConfig(flags, env, '/'),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
    );
  }
});

test('a bad value from the environment names the variable, and how to fix it, not the option', () => {
  const cases: Array<[Record<string, string>, string, string]> = [
    [{ PARAPH_PORT: 'abc' }, 'PARAPH_PORT', '--port'],
    [{ PARAPH_SMTP_PORT: '-1' }, 'PARAPH_SMTP_PORT', '--smtp-port'],
    [{ PARAPH_SMTP_RELAY: 'http://mail.example.com' }, 'PARAPH_SMTP_RELAY', '--smtp-relay'],
    [{ PARAPH_SMTP_MAX_MESSAGES: '0' }, 'PARAPH_SMTP_MAX_MESSAGES', '--smtp-max-messages'],
    [{ PARAPH_PUBLIC_URL: 'ftp://x' }, 'PARAPH_PUBLIC_URL', '--public-url'],
    [{ PARAPH_WEBHOOK_TIMEOUT: '500' }, 'PARAPH_WEBHOOK_TIMEOUT', '--webhook-timeout'],
    [{ PARAPH_RATE_LIMIT: 'maybe' }, 'PARAPH_RATE_LIMIT', '--rate-limit'],
    [{ PARAPH_BRAND: 'Acme Corp' }, 'PARAPH_BRAND', '--brand'],
    [{ PARAPH_LOG_LEVEL: 'loud' }, 'PARAPH_LOG_LEVEL', '--log-level'],
    [{ PARAPH_EPHEMERAL: 'perhaps' }, 'PARAPH_EPHEMERAL', '--ephemeral'],
    [{ WEBHOOKS_ALLOW_LOOPBACK: 'perhaps' }, 'WEBHOOKS_ALLOW_LOOPBACK', '--allow-loopback-webhooks'],
  ];
  for (const [env, variable, option] of cases) {
    assert.throws(
      () => resolveConfig({}, env, '/'),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.ok(error.message.startsWith(`${variable} must be `), error.message);
        assert.ok(error.message.includes(`fix or unset ${variable}, or pass ${option}`), error.message);
        return true;
      },
    );
  }
  // The option given on the command line wins, and a bad one is named as the option.
  assert.throws(() => resolveConfig({ port: 'x' }, { PARAPH_PORT: '5000' }, '/'), /^ConfigError: --port must be a port number from 0 to 65535, got "x"$/);
  assert.equal(resolveConfig({ port: '5000' }, { PARAPH_PORT: 'abc' }, '/').port, 5000);
});

test('paraph listen reaches the API by --api and --key or their env twins; /v1 is added to a bare server address', () => {
  const key = unknownApiKey();
  assert.deepEqual(resolveApiClient({ key }, {}), { apiUrl: 'http://127.0.0.1:4010/v1', apiKey: key });
  assert.deepEqual(resolveApiClient({}, { PARAPH_API_URL: 'http://localhost:5000/', PARAPH_API_KEY: key }), {
    apiUrl: 'http://localhost:5000/v1',
    apiKey: key,
  });
  assert.equal(
    resolveApiClient({ api: 'https://sandbox.example.test/v1/', key }, { PARAPH_API_URL: 'http://ignored' }).apiUrl,
    'https://sandbox.example.test/v1',
  );
  assert.throws(
    () => resolveApiClient({}, { PARAPH_API_KEY: ' ' }),
    (e: unknown) => e instanceof ConfigError && /--key or set PARAPH_API_KEY/.test(e.message),
  );
  assert.throws(() => resolveApiClient({ api: 'ftp://x', key }, {}), /--api must be an http\(s\) URL/);
  assert.throws(() => resolveApiClient({ key }, { PARAPH_API_URL: 'nope' }), /PARAPH_API_URL must be an http\(s\) URL.*pass --api/);
  // The key never appears in a message, even a malformed one.
  assert.throws(
    () => resolveApiClient({ api: `http://u:${key}@h/`, key }, {}),
    (e: unknown) => e instanceof ConfigError && !e.message.includes(key),
  );
});

test('a URL option that does not parse is told without the password it holds', () => {
  const secret = 'S3cret@pass';
  for (const [flags, env, name] of [
    [{ smtpRelay: `smtp://relayuser:${secret}@127.0.0.1:99999` }, {}, '--smtp-relay'],
    [{}, { PARAPH_SMTP_RELAY: `smtp://u:${secret}@127.0.0.1:99999` }, 'PARAPH_SMTP_RELAY'],
    [{ tsaUrl: `https://u:${secret}@tsa.example.com:99999/x` }, {}, '--tsa-url'],
    [{ publicUrl: `https://u:${secret}@example.com:99999` }, {}, '--public-url'],
    [{ publicUrl: `https://u:${secret}@example.com/` }, {}, '--public-url'],
  ] as const) {
    assert.throws(
      () => resolveConfig(flags, env, '/'),
      (error: unknown) =>
        error instanceof ConfigError && error.message.startsWith(`${name} must be`) && !error.message.includes('S3cret') && error.message.includes('//…@'),
      name,
    );
  }
});
