// Runs inside the worker_threads Worker that produce-artifacts.ts keeps: stamping, sealing and the
// evidence report parse and write whole PDFs, which must neither block the server's thread nor take
// unbounded memory there. One job at a time.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { PDFDocument } from 'pdf-lib';
import { renderEvidencePdf } from './evidence-pdf.js';
import { embedFonts } from './fonts.js';
import { addSealPlaceholder, sealPdf } from './seal.js';
import { stampFields } from './stamp.js';
import { ownedBytes, transferList } from './transfer.js';
/** Stamps every field value, seals the result (PAdES B-B), then writes the evidence report. */
export async function produce(job) {
    const doc = await PDFDocument.load(job.original, { updateMetadata: false });
    const fonts = await embedFonts(doc);
    await stampFields(doc, job.fields, fonts);
    const at = new Date(job.sealAt);
    addSealPlaceholder(doc, at, job.signer.name);
    // One save, then only the signature bytes change: a rewrite after sealing would break the signature.
    const prepared = await doc.save({ useObjectStreams: false });
    const signedPdf = await sealPdf(prepared, {
        certificateDer: Buffer.from(job.signer.certificateDer),
        privateKey: Buffer.from(job.signer.privateKeyDer),
    });
    const { originalSha256, ...report } = job.report;
    const evidencePdf = await renderEvidencePdf({
        ...report,
        hashes: { original: originalSha256, signed: createHash('sha256').update(signedPdf).digest('hex') },
    });
    return { signedPdf, evidencePdf };
}
/** A job on a one-page document of its own, with a typed signature, a text field and a short report. */
async function warmUpJob(signer) {
    const doc = await PDFDocument.create();
    doc.addPage([595.28, 841.89]);
    const at = new Date(0).toISOString();
    const person = { reference: 'warm-up', name: 'Warm Up', email: 'warm-up@example.com', signingOrder: null, status: 'signed', signedAt: at, verification: '', verifiedAt: null };
    return {
        original: await doc.save(),
        fields: [
            { type: 'signature', page: 1, x: 72, y: 600, width: 180, height: 40, value: null, mark: { method: 'typed', text: 'Warm Up' } },
            { type: 'text', page: 1, x: 72, y: 560, width: 180, height: 20, value: 'warm-up', mark: null },
        ],
        sealAt: 0,
        signer,
        report: {
            evidenceRef: 'warm-up', generatedAt: at, requestId: 'warm-up', clientReference: 'warm-up', documentName: 'warm-up.pdf', status: 'completed',
            sequentialSigning: false, createdAt: at, completedAt: at, retentionExpiresAt: null, originalSha256: '0'.repeat(64),
            certificate: { subject: 'warm-up', sha256: '0'.repeat(64), serialNumber: '00', notBefore: at, notAfter: at },
            signers: [person],
            events: [{ id: 1, type: 'request_completed', actorType: 'system', actorEmail: '', createdAt: at }],
            chain: { head: '0'.repeat(64), count: 1 },
        },
    };
}
const port = parentPort;
if (port) {
    // pdf-lib reports recoverable damage on the console; the result says enough.
    console.warn = () => { };
    console.log = () => { };
    let fault;
    port.on('message', (request) => {
        if ('fault' in request)
            return void (fault = request.fault);
        if (fault)
            return fail(fault);
        const { id } = request;
        ('warm' in request ? warmUpJob(request.warm).then(produce).then(() => ({ signedPdf: new Uint8Array(0), evidencePdf: new Uint8Array(0) })) : produce(request.job)).then((result) => {
            // The sealed PDF is usually a Buffer in Node's pool, which cannot be transferred.
            const signedPdf = ownedBytes(result.signedPdf);
            const evidencePdf = ownedBytes(result.evidencePdf);
            port.postMessage({ id, ok: true, signedPdf, evidencePdf }, transferList(signedPdf, evidencePdf));
        }, (error) => port.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) }));
    });
}
/** Ends this worker the way a real fault would: an uncaught error, an exit, or running out of heap. */
function fail(fault) {
    if (fault === 'exit')
        process.exit(70);
    if (fault === 'throw') {
        setImmediate(() => {
            throw new Error('injected artifact worker fault');
        });
        return;
    }
    const hoard = [];
    for (;;)
        hoard.push(Array.from({ length: 100_000 }, (_, i) => i));
}
//# sourceMappingURL=artifact-worker.js.map