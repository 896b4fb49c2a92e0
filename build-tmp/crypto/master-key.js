import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
const FILE_NAME = 'master.key';
export class MasterKeyError extends Error {
    name = 'MasterKeyError';
}
/**
 * The data directory's 256-bit master key, created on first use with mode 0600.
 * Every secret at rest (PDF blobs, webhook secrets, the signing key) is encrypted under keys derived from it.
 */
export function loadOrCreateMasterKey(dataDir, warn) {
    const file = path.join(dataDir, FILE_NAME);
    try {
        const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
        try {
            fs.writeSync(fd, `${randomBytes(32).toString('base64')}\n`);
            fs.fsyncSync(fd);
        }
        finally {
            fs.closeSync(fd);
        }
    }
    catch (error) {
        if (error.code !== 'EEXIST')
            throw error;
    }
    const mode = fs.statSync(file).mode & 0o777;
    if (mode & 0o077) {
        warn(`${file} is readable by other users (mode ${mode.toString(8)}); run: chmod 600 '${file}'`);
    }
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32)
        throw new MasterKeyError(`${file} does not hold a 256-bit base64 key`);
    return key;
}
//# sourceMappingURL=master-key.js.map