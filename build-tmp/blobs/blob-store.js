import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../crypto/tokens.js';
const MAGIC = Buffer.from('PRPHBLOB1\n');
export function createBlobStore(dataDir, sealer) {
    const dir = path.join(dataDir, 'blobs');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fileOf = (id) => {
        if (!/^[0-9a-f-]{36}$/.test(id))
            throw new Error('invalid blob id');
        return path.join(dir, `${id}.blob`);
    };
    return {
        async put(bytes) {
            const id = randomUUID();
            const sha256 = sha256Hex(bytes);
            const sealed = sealer.seal(bytes, `${id}:${sha256}`, MAGIC);
            const tmp = path.join(dir, `.${id}.tmp`);
            // One call writes, fsyncs (flush) and closes the file.
            await fs.promises.writeFile(tmp, sealed, { flag: 'wx', mode: 0o600, flush: true });
            await fs.promises.rename(tmp, fileOf(id));
            return { id, sha256, size: bytes.byteLength };
        },
        async get(id, sha256) {
            const sealed = await fs.promises.readFile(fileOf(id));
            if (!sealed.subarray(0, MAGIC.length).equals(MAGIC))
                throw new Error(`blob ${id} is not a paraph blob`);
            const plain = sealer.open(sealed.subarray(MAGIC.length), `${id}:${sha256}`);
            if (sha256Hex(plain) !== sha256)
                throw new Error(`blob ${id} does not match its digest`);
            return plain;
        },
        async delete(id) {
            await fs.promises.rm(fileOf(id), { force: true });
        },
    };
}
//# sourceMappingURL=blob-store.js.map