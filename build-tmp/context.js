import { randomUUID } from 'node:crypto';
import { createBlobStore } from './blobs/blob-store.js';
import { createClock } from './clock.js';
import { loadOrCreateMasterKey } from './crypto/master-key.js';
import { createMac, createSealer } from './crypto/sealed.js';
import { databaseFile, prepareDataDir } from './data-dir.js';
import { openDatabase } from './db/database.js';
import { brandNames } from './domain/brand.js';
import { createPdfInspector } from './pdf/inspect.js';
const BRAND_KEY = 'brand';
const PUBLIC_URL_KEY = 'public_url';
const LOOPBACK_KEY = 'allow_loopback_webhooks';
const CATCHER_KEY = 'smtp_catcher_url';
const RELAY_KEY = 'smtp_relay';
export async function createContext(options) {
    const warn = (message) => options.log.warn(message);
    prepareDataDir(options.dataDir, warn);
    const masterKey = loadOrCreateMasterKey(options.dataDir, warn);
    const db = await openDatabase(databaseFile(options.dataDir));
    const pdf = createPdfInspector();
    let publicUrl;
    const allowLoopbackWebhooks = resolveFlag(db, LOOPBACK_KEY, options.allowLoopbackWebhooks);
    if (options.smtpRelay !== undefined)
        writeSetting(db, RELAY_KEY, options.smtpRelay ?? '');
    let catcherUrl;
    return {
        dataDir: options.dataDir,
        db,
        blobs: createBlobStore(options.dataDir, createSealer(masterKey, 'blobs')),
        clock: createClock(db, options.realNow),
        secrets: createSealer(masterKey, 'secrets'),
        mailTag: createMac(masterKey, 'mail-tag'),
        brand: brandNames(resolveBrand(db, options.brand)),
        pdf,
        log: options.log,
        processId: randomUUID(),
        policy: Object.freeze({ allowLoopbackWebhooks, webhookTimeoutMs: options.webhookTimeoutMs ?? 15_000 }),
        publicUrl() {
            publicUrl ??= readSetting(db, PUBLIC_URL_KEY) ?? 'http://127.0.0.1:4010';
            return publicUrl;
        },
        setPublicUrl(url) {
            publicUrl = url;
            writeSetting(db, PUBLIC_URL_KEY, url);
        },
        mailTarget() {
            const relay = readSetting(db, RELAY_KEY);
            if (relay)
                return relay;
            return catcherUrl ?? readSetting(db, CATCHER_KEY) ?? null;
        },
        setCatcherUrl(url) {
            catcherUrl = url;
            writeSetting(db, CATCHER_KEY, url);
        },
        async close() {
            await pdf.close();
            db.close();
        },
    };
}
/** serve records its brand so CLI processes on the same directory mint keys with the same prefix. */
function resolveBrand(db, requested) {
    if (requested === undefined)
        return readSetting(db, BRAND_KEY) ?? 'paraph';
    writeSetting(db, BRAND_KEY, requested);
    return requested;
}
/** serve records its webhook policy too, so a CLI process that sends due webhooks applies the same one. */
function resolveFlag(db, key, requested) {
    if (requested === undefined)
        return readSetting(db, key) === '1';
    writeSetting(db, key, requested ? '1' : '0');
    return requested;
}
function readSetting(db, key) {
    return db.first(db.q.selectFrom('settings').select('value').where('key', '=', key))?.value;
}
function writeSetting(db, key, value) {
    db.transaction(() => db.run(db.q.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value }))));
}
//# sourceMappingURL=context.js.map