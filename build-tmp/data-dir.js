import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
/** Creates the data directory (mode 0700) or checks an existing one; says what is wrong and where. */
export function prepareDataDir(dir, warn) {
    const fail = (why) => new Error(`data directory ${dir} (--data-dir) ${why}`);
    try {
        makeDirectories(path.resolve(dir));
    }
    catch (error) {
        throw fail(reasonOf(error));
    }
    const stat = fs.statSync(dir);
    if (!stat.isDirectory())
        throw fail('exists and is not a directory');
    try {
        fs.accessSync(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
    }
    catch {
        throw fail('is not readable and writable by this user');
    }
    const mode = stat.mode & 0o777;
    if (mode & 0o077) {
        warn(`data directory ${dir} is accessible by other users (mode ${mode.toString(8)}); run: chmod 700 '${dir}'`);
    }
}
/**
 * mkdir -p, one level at a time from the nearest existing ancestor. Node's recursive mkdir loops
 * forever where mkdir answers ENOENT for a path whose parent exists (procfs, for one).
 */
function makeDirectories(dir) {
    const missing = [];
    for (let at = dir; !fs.existsSync(at); at = path.dirname(at)) {
        missing.unshift(at);
        if (path.dirname(at) === at)
            break;
    }
    for (const at of missing) {
        try {
            fs.mkdirSync(at, { mode: 0o700 });
        }
        catch (error) {
            // Made meanwhile by another process starting on the same directory.
            if (error.code !== 'EEXIST' || !fs.statSync(at).isDirectory())
                throw error;
        }
    }
}
function reasonOf(error) {
    switch (error.code) {
        case 'EEXIST':
            return 'exists and is not a directory';
        case 'ENOTDIR':
            return 'cannot be created: a part of the path is not a directory';
        case 'EACCES':
        case 'EPERM':
            return 'cannot be created: permission denied';
        case 'EROFS':
            return 'cannot be created: the file system is read-only';
        case 'ENOENT':
            return 'cannot be created here: this file system does not allow it';
        default:
            return `cannot be created: ${error.message}`;
    }
}
/** A throwaway data directory for `--ephemeral`. */
export function makeEphemeralDataDir() {
    return fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-'));
}
export function removeDataDir(dir) {
    fs.rmSync(dir, { recursive: true, force: true });
}
export const databaseFile = (dir) => path.join(dir, 'paraph.db');
//# sourceMappingURL=data-dir.js.map