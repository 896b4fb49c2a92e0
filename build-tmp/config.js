import path from 'node:path';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'];
/** A configuration mistake by the user: the CLI prints it and exits with the usage code. */
export class ConfigError extends Error {
    name = 'ConfigError';
}
export const DEFAULT_DATA_DIR = './.paraph';
export function resolveConfig(flags, env, cwd) {
    const pick = (flag, name) => flag ?? nonEmpty(env[name]);
    const ephemeral = flags.ephemeral ?? parseBoolean(nonEmpty(env.PARAPH_EPHEMERAL), 'PARAPH_EPHEMERAL') ?? false;
    const publicUrl = pick(flags.publicUrl, 'PARAPH_PUBLIC_URL');
    const config = {
        host: pick(flags.host, 'PARAPH_HOST') ?? '127.0.0.1',
        port: parsePort(pick(flags.port, 'PARAPH_PORT') ?? '4010', '--port'),
        dataDir: ephemeral ? null : resolveDataDir({ dataDir: flags.dataDir }, env, cwd),
        smtpPort: parsePort(pick(flags.smtpPort, 'PARAPH_SMTP_PORT') ?? '2525', '--smtp-port'),
        smtpRelay: parseRelay(pick(flags.smtpRelay, 'PARAPH_SMTP_RELAY')),
        smtpMaxMessages: parseCount(pick(flags.smtpMaxMessages, 'PARAPH_SMTP_MAX_MESSAGES') ?? '5000', '--smtp-max-messages'),
        publicUrl: publicUrl === undefined ? null : parsePublicUrl(publicUrl),
        allowLoopbackWebhooks: flags.allowLoopbackWebhooks ?? parseBoolean(nonEmpty(env.WEBHOOKS_ALLOW_LOOPBACK), 'WEBHOOKS_ALLOW_LOOPBACK') ?? false,
        webhookTimeoutMs: parseSeconds(pick(flags.webhookTimeout, 'PARAPH_WEBHOOK_TIMEOUT') ?? '15', '--webhook-timeout') * 1000,
        rateLimit: parseOnOff(pick(flags.rateLimit, 'PARAPH_RATE_LIMIT') ?? 'on', '--rate-limit'),
        brand: parseBrand(pick(flags.brand, 'PARAPH_BRAND') ?? 'paraph'),
        logLevel: parseLogLevel(pick(flags.logLevel, 'PARAPH_LOG_LEVEL') ?? 'warn'),
    };
    return Object.freeze(config);
}
/** The data directory of CLI commands other than serve: `--data-dir`, else PARAPH_DATA_DIR, else ./.paraph. */
export function resolveDataDir(flags, env, cwd) {
    return path.resolve(cwd, flags.dataDir ?? nonEmpty(env.PARAPH_DATA_DIR) ?? DEFAULT_DATA_DIR);
}
function nonEmpty(value) {
    return value === undefined || value.trim() === '' ? undefined : value.trim();
}
function parsePort(value, option) {
    if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
        throw new ConfigError(`${option} must be a port number from 0 to 65535, got "${value}"`);
    }
    return Number(value);
}
function parseRelay(value) {
    if (value === undefined)
        return null;
    let url;
    try {
        url = new URL(value);
    }
    catch {
        throw new ConfigError(`--smtp-relay must be an smtp:// or smtps:// URL, got "${value}"`);
    }
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
        throw new ConfigError(`--smtp-relay must be an smtp:// or smtps:// URL, got "${url.protocol}"`);
    }
    return url.href;
}
function parseCount(value, option) {
    if (!/^\d{1,7}$/.test(value) || Number(value) < 1)
        throw new ConfigError(`${option} must be a whole number from 1 to 9999999, got "${value}"`);
    return Number(value);
}
function parseSeconds(value, option) {
    if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 120) {
        throw new ConfigError(`${option} must be a number of seconds from 1 to 120, got "${value}"`);
    }
    return Number(value);
}
function parseBoolean(value, name) {
    if (value === undefined)
        return undefined;
    const lower = value.toLowerCase();
    if (['1', 'true', 'on', 'yes'].includes(lower))
        return true;
    if (['0', 'false', 'off', 'no'].includes(lower))
        return false;
    throw new ConfigError(`${name} must be 1 or 0, got "${value}"`);
}
function parseOnOff(value, option) {
    const lower = value.toLowerCase();
    if (lower === 'on')
        return true;
    if (lower === 'off')
        return false;
    throw new ConfigError(`${option} must be "on" or "off", got "${value}"`);
}
function parsePublicUrl(value) {
    let url;
    try {
        url = new URL(value);
    }
    catch {
        throw new ConfigError(`--public-url must be an absolute http(s) URL, got "${value}"`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
        throw new ConfigError(`--public-url must be an http(s) URL without query, fragment or credentials, got "${value}"`);
    }
    return url.href.replace(/\/+$/, '');
}
function parseBrand(value) {
    if (!/^[a-z][a-z0-9]{0,31}$/.test(value)) {
        throw new ConfigError(`--brand must be a lowercase word (a-z, 0-9, starting with a letter), got "${value}"`);
    }
    return value;
}
function parseLogLevel(value) {
    const level = LOG_LEVELS.find((l) => l === value.toLowerCase());
    if (!level)
        throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
    return level;
}
/** The base URL that signing links use, once the server's actual address is known. */
export function publicBaseUrl(config, listening) {
    if (config.publicUrl)
        return config.publicUrl;
    const host = listening.host === '0.0.0.0' || listening.host === '::' ? '127.0.0.1' : listening.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${listening.port}`;
}
//# sourceMappingURL=config.js.map