// The PDF inspection child process, started by inspect.ts: parsing untrusted PDFs
// here keeps runaway time or memory away from the server, and what the parser's
// heap grew to goes back to the system with the process.
import { Buffer } from 'node:buffer';
import { PDFDocument, ParseSpeeds } from 'pdf-lib';
import { displayedBox } from './page-box.js';
// The Encrypt entry of a trailer or cross-reference stream dictionary.
const ENCRYPT_ENTRY = /\/Encrypt(?:\s+\d+\s+\d+\s+R|\s*<<)/;
const WINDOW = 4096;
export async function inspectPdf(bytes) {
    const encrypted = declaresEncryption(bytes);
    let doc;
    try {
        // Encryption is checked below instead, so that it is reported even when
        // the rest of the file is damaged.
        doc = await PDFDocument.load(bytes, {
            ignoreEncryption: true,
            updateMetadata: false,
            parseSpeed: ParseSpeeds.Fastest,
        });
    }
    catch (err) {
        return encrypted ? encryptedResult() : failure(err);
    }
    if (encrypted || doc.isEncrypted)
        return encryptedResult();
    try {
        const pages = doc.getPages().map(geometry);
        if (pages.length === 0)
            return { ok: false, reason: 'no_pages', message: 'document has no pages' };
        return { ok: true, pageCount: pages.length, pages };
    }
    catch (err) {
        return failure(err);
    }
}
function encryptedResult() {
    return {
        ok: false,
        reason: 'encrypted',
        message: 'document is encrypted (password-protected); remove the protection and upload it again',
    };
}
function failure(err) {
    // Deep nesting (or a cyclic page tree) overflows the parser's recursion.
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
        return { ok: false, reason: 'too_complex', message: 'document is too complex to inspect (structure nested too deeply)' };
    }
    return { ok: false, reason: 'unreadable', message: 'document is damaged or malformed and cannot be read as a PDF' };
}
// pdf-lib only sees the trailer it manages to parse; scan the raw trailers and
// cross-reference stream dictionaries too, without decoding the whole file.
function declaresEncryption(bytes) {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const text = (start, end) => buf.toString('latin1', Math.max(0, start), Math.min(buf.length, end));
    for (let at = buf.indexOf('trailer'); at !== -1; at = buf.indexOf('trailer', at + 7)) {
        if (ENCRYPT_ENTRY.test(text(at, at + WINDOW).split('startxref')[0] ?? ''))
            return true;
    }
    for (let at = buf.indexOf('/XRef'); at !== -1; at = buf.indexOf('/XRef', at + 5)) {
        const before = text(at - WINDOW, at);
        const after = text(at, at + WINDOW);
        const dict = before.slice(before.lastIndexOf('obj') + 1) + (after.split('stream')[0] ?? '');
        if (ENCRYPT_ENTRY.test(dict))
            return true;
    }
    return false;
}
// The page as displayed, in points.
function geometry(page) {
    const { box, rotation } = displayedBox(page);
    const width = round(box.x1 - box.x0);
    const height = round(box.y1 - box.y0);
    return rotation === 90 || rotation === 270 ? { width: height, height: width, rotation } : { width, height, rotation };
}
function round(n) {
    return Math.round(n * 1000) / 1000;
}
if (process.send && process.argv[2] === 'inspect') {
    const send = process.send.bind(process);
    // pdf-lib reports recoverable damage on the console; the answer says enough.
    console.warn = () => { };
    console.log = () => { };
    // The server may send the next document while this one is read: documents are read one after
    // the other, in the order they came, and answered in that order.
    let reading = Promise.resolve();
    process.on('message', (req) => {
        reading = reading.then(() => inspectPdf(req.bytes)
            .catch(failure)
            .then((result) => void send({ type: 'result', id: req.id, result })));
    });
    // The server went away: nothing is left to answer to.
    process.on('disconnect', () => process.exit(0));
    send({ type: 'ready' });
}
//# sourceMappingURL=inspect-child.js.map