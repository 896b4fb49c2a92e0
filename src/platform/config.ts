import path from 'node:path';
import { classifyIp, isIpLiteral, isLoopbackHost } from '../domain/ip-ranges.js';

/** Everything `paraph serve` and the CLI need to know, resolved once from flags and environment. */
export interface Config {
  readonly host: string;
  readonly port: number;
  /** Absolute path; `null` with `--ephemeral` (a temporary directory is made at start and deleted at exit). */
  readonly dataDir: string | null;
  readonly smtpPort: number;
  /** Where paraph's own mail goes instead of the catcher (`smtp://user:pass@host:port`), or null. */
  readonly smtpRelay: string | null;
  /** How many caught messages are kept (the oldest are dropped). */
  readonly smtpMaxMessages: number;
  /** Base of signing links; `null` means `http://HOST:PORT` of the running server. */
  readonly publicUrl: string | null;
  readonly allowLoopbackWebhooks: boolean;
  /** How long one webhook attempt may take before it counts as failed. */
  readonly webhookTimeoutMs: number;
  /** How long a request (head and body) may take to arrive; later, 408 and the connection closes. */
  readonly requestTimeoutMs: number;
  readonly rateLimit: boolean;
  /** Whether seals carry an RFC 3161 timestamp (PAdES B-T); off makes B-B seals. */
  readonly timestamps: boolean;
  /** An external RFC 3161 authority instead of the built-in test one, or null. */
  readonly tsaUrl: string | null;
  readonly brand: string;
  readonly logLevel: LogLevel;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'];

/** Raw option values as the CLI parsed them; `undefined` when the flag was not given. */
export interface ConfigFlags {
  host?: string | undefined;
  port?: string | undefined;
  dataDir?: string | undefined;
  smtpPort?: string | undefined;
  smtpRelay?: string | undefined;
  smtpMaxMessages?: string | undefined;
  publicUrl?: string | undefined;
  allowLoopbackWebhooks?: boolean | undefined;
  webhookTimeout?: string | undefined;
  requestTimeout?: string | undefined;
  rateLimit?: string | undefined;
  timestamps?: string | undefined;
  tsaUrl?: string | undefined;
  ephemeral?: boolean | undefined;
  brand?: string | undefined;
  logLevel?: string | undefined;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** A configuration mistake by the user: the CLI prints it and exits with the usage code. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEFAULT_DATA_DIR = './.paraph';

/** A raw value and the name the user gave it by: the option (`--port`) or its environment variable (`PARAPH_PORT`). */
interface Setting {
  readonly value: string;
  readonly name: string;
  /** The option to name when the value came from the environment. */
  readonly option?: string;
}

export function resolveConfig(flags: ConfigFlags, env: Env, cwd: string): Config {
  /** The flag, else its environment variable, else nothing. */
  const optional = (flag: string | undefined, option: string, variable: string): Setting | undefined => {
    if (flag !== undefined) return { value: flag, name: option };
    const fromEnv = nonEmpty(env[variable]);
    return fromEnv === undefined ? undefined : { value: fromEnv, name: variable, option };
  };
  const setting = (flag: string | undefined, option: string, variable: string, fallback: string): Setting =>
    optional(flag, option, variable) ?? { value: fallback, name: option };
  const ephemeral = flags.ephemeral ?? parseBoolean(optional(undefined, '--ephemeral', 'PARAPH_EPHEMERAL')) ?? false;
  if (ephemeral && flags.dataDir !== undefined) {
    // (PARAPH_DATA_DIR, set for the CLI's commands, is not asked for with it: a throwaway server overrides it.)
    const by = flags.ephemeral === undefined ? 'PARAPH_EPHEMERAL=1' : '--ephemeral';
    throw new ConfigError(
      `--data-dir cannot be used with ${by}, which makes a throwaway data directory of its own and deletes it at exit: drop ${by} to keep the data in ${flags.dataDir}, or drop --data-dir`,
    );
  }
  const publicUrl = optional(flags.publicUrl, '--public-url', 'PARAPH_PUBLIC_URL');
  const config: Config = {
    host: parseHost(optional(flags.host, '--host', 'PARAPH_HOST')),
    port: parsePort(setting(flags.port, '--port', 'PARAPH_PORT', '4010')),
    dataDir: ephemeral ? null : resolveDataDir({ dataDir: flags.dataDir }, env, cwd),
    smtpPort: parsePort(setting(flags.smtpPort, '--smtp-port', 'PARAPH_SMTP_PORT', '2525')),
    smtpRelay: parseRelay(optional(flags.smtpRelay, '--smtp-relay', 'PARAPH_SMTP_RELAY')),
    smtpMaxMessages: parseCount(setting(flags.smtpMaxMessages, '--smtp-max-messages', 'PARAPH_SMTP_MAX_MESSAGES', '5000')),
    publicUrl: publicUrl === undefined ? null : parsePublicUrl(publicUrl),
    allowLoopbackWebhooks: flags.allowLoopbackWebhooks ?? parseBoolean(optional(undefined, '--allow-loopback-webhooks', 'WEBHOOKS_ALLOW_LOOPBACK')) ?? false,
    webhookTimeoutMs: parseSeconds(setting(flags.webhookTimeout, '--webhook-timeout', 'PARAPH_WEBHOOK_TIMEOUT', '15')) * 1000,
    requestTimeoutMs: parseSeconds(setting(flags.requestTimeout, '--request-timeout', 'PARAPH_REQUEST_TIMEOUT', '60')) * 1000,
    rateLimit: parseOnOff(setting(flags.rateLimit, '--rate-limit', 'PARAPH_RATE_LIMIT', 'on')),
    timestamps: parseOnOff(setting(flags.timestamps, '--timestamps', 'PARAPH_TIMESTAMPS', 'on')),
    tsaUrl: parseTsaUrl(optional(flags.tsaUrl, '--tsa-url', 'PARAPH_TSA_URL')),
    brand: parseBrand(setting(flags.brand, '--brand', 'PARAPH_BRAND', 'paraph')),
    logLevel: parseLogLevel(setting(flags.logLevel, '--log-level', 'PARAPH_LOG_LEVEL', 'warn')),
  };
  if (config.tsaUrl !== null) checkTsaDestination(config.tsaUrl, config.allowLoopbackWebhooks, flags.tsaUrl === undefined ? 'PARAPH_TSA_URL' : '--tsa-url');
  return Object.freeze(config);
}

/** The webhooks' address rules, as far as the URL alone tells: loopback needs the opt-in, other non-public addresses never pass. */
function checkTsaDestination(value: string, allowLoopback: boolean, name: string): void {
  const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
  const kind = isIpLiteral(host) ? classifyIp(host) : isLoopbackHost(host) ? 'loopback' : 'public';
  if (kind === 'public' || (kind === 'loopback' && allowLoopback)) return;
  const hint = kind === 'loopback' ? ': a timestamp authority on this machine needs --allow-loopback-webhooks (env WEBHOOKS_ALLOW_LOOPBACK=1)' : '';
  throw new ConfigError(`${name} must point to a public address, got a ${kind.replace('_', '-')} one (${host})${hint}`);
}

/** The data directory of CLI commands other than serve: `--data-dir`, else PARAPH_DATA_DIR, else ./.paraph. */
export function resolveDataDir(flags: { dataDir?: string | undefined }, env: Env, cwd: string): string {
  // An empty value (`--data-dir "$UNSET"`) would resolve to the working directory, a project's folder.
  if (flags.dataDir !== undefined && flags.dataDir.trim() === '') {
    throw new ConfigError('--data-dir needs a directory, got an empty value: name one, or leave the option out for the default ./.paraph');
  }
  return path.resolve(cwd, flags.dataDir ?? nonEmpty(env.PARAPH_DATA_DIR) ?? DEFAULT_DATA_DIR);
}

/** How the user chose the data directory, as a message names it: the option, the environment variable, or the default. */
export function dataDirSource(flags: { dataDir?: string | undefined }, env: Env): string {
  if (flags.dataDir !== undefined) return '--data-dir';
  if (nonEmpty(env.PARAPH_DATA_DIR) !== undefined) return 'PARAPH_DATA_DIR';
  return `the default ${DEFAULT_DATA_DIR}; --data-dir or PARAPH_DATA_DIR sets another`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * The address serve listens on (127.0.0.1 by default): not empty, and not one no client can reach,
 * though the system lets a server bind it (a multicast or broadcast address).
 */
function parseHost(setting: Setting | undefined): string {
  if (setting === undefined) return '127.0.0.1';
  const rule = 'an address of this machine: 127.0.0.1 (the default), 0.0.0.0 for every interface, or one of its own addresses';
  if (setting.value.trim() === '') throw invalid(setting, rule);
  const host = setting.value.replace(/^\[(.*)\]$/, '$1');
  const kind = isIpLiteral(host) ? classifyIp(host) : 'name';
  if (kind === 'multicast' || kind === 'broadcast' || host === '127.255.255.255') {
    throw invalid(setting, `${rule}; a ${kind === 'multicast' ? 'multicast' : 'broadcast'} address takes no connection`);
  }
  return setting.value;
}

/** "NAME must be RULE, got VALUE", and for a value from the environment, how to fix it there. */
function invalid(setting: Setting, rule: string, shown: string = setting.value): ConfigError {
  const fix = setting.option ? environmentFix(setting.name, setting.option) : '';
  return new ConfigError(`${setting.name} must be ${rule}, got "${shown}"${fix}`);
}

/** How to fix a value that came from the environment. */
function environmentFix(variable: string, option: string): string {
  return ` (from the environment: fix or unset ${variable}, or pass ${option})`;
}

/**
 * How the user gave a setting, for a message about its value: the option, or (without the option) its
 * environment variable, with how to fix it there, as every bad value of serve's options is said.
 */
export function givenAs(flag: string | undefined, option: string, variable: string, env: Env): { name: string; fix: string } {
  return flag === undefined && nonEmpty(env[variable]) !== undefined ? { name: variable, fix: environmentFix(variable, option) } : { name: option, fix: '' };
}

function parsePort(setting: Setting): number {
  const { value } = setting;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw invalid(setting, 'a port number from 0 to 65535');
  return Number(value);
}

function parseRelay(setting: Setting | undefined): string | null {
  if (setting === undefined) return null;
  let url: URL;
  try {
    url = new URL(setting.value);
  } catch {
    throw invalid(setting, 'an smtp:// or smtps:// URL', withoutCredentials(setting.value));
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw invalid(setting, 'an smtp:// or smtps:// URL', url.protocol);
  // (`smtp://` alone parses, with no host to send to.)
  if (url.hostname === '') throw invalid(setting, 'an smtp:// or smtps:// URL naming its server (smtp://host:port)', withoutCredentials(setting.value));
  return url.href;
}

function parseCount(setting: Setting): number {
  const { value } = setting;
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1) throw invalid(setting, 'a whole number from 1 to 9999999');
  return Number(value);
}

function parseSeconds(setting: Setting): number {
  const { value } = setting;
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 120) throw invalid(setting, 'a number of seconds from 1 to 120');
  return Number(value);
}

function parseBoolean(setting: Setting | undefined): boolean | undefined {
  if (setting === undefined) return undefined;
  const lower = setting.value.toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(lower)) return true;
  if (['0', 'false', 'off', 'no'].includes(lower)) return false;
  throw invalid(setting, '1 or 0');
}

function parseOnOff(setting: Setting): boolean {
  const lower = setting.value.toLowerCase();
  if (lower === 'on') return true;
  if (lower === 'off') return false;
  throw invalid(setting, '"on" or "off"');
}

/** An http(s) URL without credentials or fragment; where it may point is checked when it is used (as for webhooks). */
function parseTsaUrl(setting: Setting | undefined): string | null {
  if (setting === undefined) return null;
  let url: URL;
  try {
    url = new URL(setting.value);
  } catch {
    throw invalid(setting, 'an http(s) URL of an RFC 3161 timestamp authority', withoutCredentials(setting.value));
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hash || url.username || url.password) {
    throw invalid(setting, 'an http(s) URL without fragment or credentials', `${url.protocol}//${url.host}${url.pathname}`);
  }
  return url.href;
}

/** A URL's text as a message may show it: a user name and password (`//user:secret@`) are left out, even where the URL does not parse. */
function withoutCredentials(text: string): string {
  // (Up to the last `@`: a password may hold `@`, `/` or `#` that the user did not escape.)
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/i, '$1…@');
}

function parsePublicUrl(setting: Setting): string {
  let url: URL;
  try {
    url = new URL(setting.value);
  } catch {
    throw invalid(setting, 'an absolute http(s) URL', withoutCredentials(setting.value));
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw invalid(setting, 'an http(s) URL without query, fragment or credentials', withoutCredentials(setting.value));
  }
  return url.href.replace(/\/+$/, '');
}

function parseBrand(setting: Setting): string {
  if (!/^[a-z][a-z0-9]{0,31}$/.test(setting.value)) throw invalid(setting, 'a lowercase word (a-z, 0-9, starting with a letter)');
  return setting.value;
}

function parseLogLevel(setting: Setting): LogLevel {
  const level = LOG_LEVELS.find((l) => l === setting.value.toLowerCase());
  if (!level) throw invalid(setting, `one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

/** How a command that calls a running server (`paraph listen`) reaches its API. */
export interface ApiClientConfig {
  /** The API base, ending in `/v1`. */
  readonly apiUrl: string;
  /** A bearer credential: never printed. */
  readonly apiKey: string;
}

export const DEFAULT_API_URL = 'http://127.0.0.1:4010/v1';

/** `--api` (env PARAPH_API_URL, default the local server's) and `--key` (env PARAPH_API_KEY, required). */
export function resolveApiClient(flags: { api?: string | undefined; key?: string | undefined }, env: Env): ApiClientConfig {
  const api = flags.api !== undefined ? { value: flags.api, name: '--api' } : fromEnv(env, 'PARAPH_API_URL', '--api');
  const key = flags.key ?? nonEmpty(env.PARAPH_API_KEY);
  if (key === undefined || key.trim() === '') {
    throw new ConfigError(
      'an API key is needed: pass --key or set PARAPH_API_KEY (`paraph serve` prints one at its first start; `paraph keys create` makes another)',
    );
  }
  return Object.freeze({ apiUrl: parseApiUrl(api ?? { value: DEFAULT_API_URL, name: '--api' }), apiKey: key.trim() });
}

function fromEnv(env: Env, variable: string, option: string): Setting | undefined {
  const value = nonEmpty(env[variable]);
  return value === undefined ? undefined : { value, name: variable, option };
}

/** The server's address or its API base, as the ready banner prints it: `/v1` is added when missing. */
function parseApiUrl(setting: Setting): string {
  let url: URL;
  try {
    url = new URL(setting.value);
  } catch {
    throw invalid(setting, 'an http(s) URL such as http://127.0.0.1:4010/v1');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw invalid(setting, 'an http(s) URL without query, fragment or credentials', `${url.protocol}//${url.host}${url.pathname}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith('/v1') ? path : `${path}/v1`}`;
}

/** The base URL that signing links use, once the server's actual address is known. */
export function publicBaseUrl(config: Config, listening: { host: string; port: number }): string {
  if (config.publicUrl) return config.publicUrl;
  const host = listening.host === '0.0.0.0' || listening.host === '::' ? '127.0.0.1' : listening.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${listening.port}`;
}
