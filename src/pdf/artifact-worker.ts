// Runs inside the worker_threads Worker that produce-artifacts.ts keeps: stamping, sealing and the
// evidence report parse and write whole PDFs, which must neither block the server's thread nor take
// unbounded memory there. One job at a time.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { PDFDocument } from 'pdf-lib';
import { renderEvidencePdf, type EvidenceReport } from './evidence-pdf.js';
import { embedFonts } from './fonts.js';
import { addSealPlaceholder, sealPdf } from './seal.js';
import { stampFields, type StampField } from './stamp.js';

export interface ProduceJob {
  original: Uint8Array;
  fields: StampField[];
  /** Time of the seal (sandbox clock, ms): the signature dictionary's /M. */
  sealAt: number;
  signer: { certificateDer: Uint8Array; privateKeyDer: Uint8Array; name: string };
  /** The report without the signed PDF's hash, which only exists once sealed. */
  report: Omit<EvidenceReport, 'hashes'> & { originalSha256: string };
}

export type ProduceReply =
  | { id: number; ok: true; signedPdf: Uint8Array; evidencePdf: Uint8Array }
  | { id: number; ok: false; message: string };

/** Stamps every field value, seals the result (PAdES B-B), then writes the evidence report. */
export async function produce(job: ProduceJob): Promise<{ signedPdf: Uint8Array; evidencePdf: Uint8Array }> {
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
  return { signedPdf: new Uint8Array(signedPdf.buffer, signedPdf.byteOffset, signedPdf.byteLength), evidencePdf };
}

const port = parentPort;
if (port) {
  // pdf-lib reports recoverable damage on the console; the result says enough.
  console.warn = () => {};
  console.log = () => {};
  port.on('message', ({ id, job }: { id: number; job: ProduceJob }) => {
    produce(job).then(
      (result) => port.postMessage({ id, ok: true, ...result } satisfies ProduceReply, [result.signedPdf.buffer, result.evidencePdf.buffer] as ArrayBuffer[]),
      (error: unknown) => port.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies ProduceReply),
    );
  });
}
