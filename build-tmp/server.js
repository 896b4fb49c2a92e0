import { publicBaseUrl } from './config.js';
import { createContext } from './context.js';
import { makeEphemeralDataDir, removeDataDir } from './data-dir.js';
import { buildApp } from './http/app.js';
import { createLog } from './log.js';
import { ensureFirstApiKey } from './services/ensure-first-api-key.js';
import { startScheduler } from './jobs/scheduler.js';
import { startDispatcher } from './jobs/dispatch-webhooks.js';
import { startCatcher } from './mail/catcher.js';
import { pendingMailIds, sendQueuedMail } from './mail/outbox.js';
import { warmArtifactGeneration } from './services/generate-artifacts.js';
import { anyActiveRequest } from './db/repos/signature-requests.js';
/** Starts everything `paraph serve` runs, in this process; `close()` stops it and releases the data directory. */
export async function startParaph(config, options = {}) {
    const dataDir = config.dataDir ?? makeEphemeralDataDir();
    const log = options.log ?? createLog(config.logLevel);
    let ctx;
    try {
        ctx = await createContext({
            dataDir,
            log,
            brand: config.brand,
            allowLoopbackWebhooks: config.allowLoopbackWebhooks,
            webhookTimeoutMs: config.webhookTimeoutMs,
            smtpRelay: config.smtpRelay,
            ...(options.realNow ? { realNow: options.realNow } : {}),
        });
        // A request stored active may complete at any moment: the artifact worker loads and runs once in
        // its own thread while the rest starts. Otherwise the first activation warms it (a data directory
        // with nothing to sign does not carry the worker's memory).
        if (anyActiveRequest(ctx.db))
            void warmArtifactGeneration(ctx);
        const catcher = await startCatcher(ctx, { host: config.host, port: config.smtpPort, maxMessages: config.smtpMaxMessages });
        ctx.setCatcherUrl(`smtp://${loopbackFor(config.host)}:${catcher.port}`);
        const scheduler = startScheduler(ctx);
        const dispatcher = startDispatcher(ctx);
        // Whatever stops the start from here (an app that cannot be built, a busy port) stops the jobs
        // too: they would otherwise keep running on the database closed below.
        let app;
        try {
            app = await buildApp({ ctx, rateLimit: config.rateLimit });
            await app.listen({ host: config.host, port: config.port });
        }
        catch (error) {
            await app?.close();
            await scheduler.stop();
            await dispatcher.stop();
            await catcher.close();
            throw error;
        }
        // Only once both ports are bound: a start that fails on a busy port must leave the data
        // directory without an account, so that the next start creates the key and shows it.
        const firstKey = ensureFirstApiKey(ctx);
        const server = app;
        const address = app.server.address();
        const url = publicBaseUrl({ ...config, publicUrl: null }, { host: address.address, port: address.port });
        const base = publicBaseUrl(config, { host: address.address, port: address.port });
        ctx.setPublicUrl(base);
        // Mail queued by a process that stopped before sending it goes now.
        void sendQueuedMail(ctx, pendingMailIds(ctx));
        const context = ctx;
        let closed;
        return {
            url,
            publicUrl: base,
            smtpPort: catcher.port,
            dataDir,
            firstKey,
            ctx: context,
            close: () => (closed ??= (async () => {
                await server.close();
                await scheduler.stop();
                await dispatcher.stop();
                await catcher.close();
                await context.close();
                if (config.dataDir === null)
                    removeDataDir(dataDir);
            })()),
        };
    }
    catch (error) {
        await ctx?.close();
        if (config.dataDir === null)
            removeDataDir(dataDir);
        throw error;
    }
}
/** The address a local client reaches a server bound to `host` on. */
function loopbackFor(host) {
    if (host === '0.0.0.0' || host === '::' || host === '')
        return '127.0.0.1';
    return host.includes(':') ? `[${host}]` : host;
}
//# sourceMappingURL=server.js.map