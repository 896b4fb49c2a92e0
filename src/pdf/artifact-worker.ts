// Runs inside the worker_threads Worker that produce-artifacts.ts keeps: stamping, sealing and the
// evidence report parse and write whole PDFs, which must neither block the server's thread nor take
// unbounded memory there. One job at a time.
import { createHash } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import { serveCalls, workerArguments } from '../platform/worker-entry.js';
import {
  ARTIFACT_ENTRY,
  type ArtifactWorkerFault,
  type ProduceJob,
  type ProducedArtifacts,
  type ProduceRequest,
  type WarmUp,
  type WarmUpNote,
} from './artifact-messages.js';
import { renderEvidencePdf } from './evidence-pdf.js';
import { embedFonts } from './fonts.js';
import { addSealPlaceholder, sealPdf, SIGNATURE_BYTES, SIGNATURE_BYTES_EXTERNAL_TSA } from './seal.js';
import { stampFields } from './stamp.js';
import { flattenForm } from './flatten-form.js';
import { ownedBytes, transferList } from './transfer.js';
import { sealTimestamper } from './tsa-seal.js';

/**
 * Stamps every field value, seals the result (PAdES B-T with a timestamp plan, B-B without), then
 * writes the evidence report. `pause` runs between those steps; a warm-up stops there by throwing.
 */
export async function produce(job: ProduceJob, pause: () => Promise<void> = async () => {}): Promise<ProducedArtifacts> {
  // The built-in authority's genTime: the seal's time (sandbox clock) plus the time spent since.
  const started = performance.now();
  const now = () => new Date(job.sealAt + Math.round(performance.now() - started));
  const doc = await PDFDocument.load(job.original, { updateMetadata: false });
  const fonts = await embedFonts(doc);
  await pause();
  flattenForm(doc);
  await stampFields(doc, job.fields, fonts);
  const at = new Date(job.sealAt);
  addSealPlaceholder(doc, at, job.signer.name, job.timestamp?.authority === 'external' ? SIGNATURE_BYTES_EXTERNAL_TSA : SIGNATURE_BYTES);
  // One save, then only the signature bytes change: a rewrite after sealing would break the signature.
  const prepared = await doc.save({ useObjectStreams: false });
  await pause();
  const timestamper = job.timestamp ? sealTimestamper(job.timestamp, now) : undefined;
  const signedPdf = await sealPdf(
    prepared,
    { certificateDer: Buffer.from(job.signer.certificateDer), privateKey: Buffer.from(job.signer.privateKeyDer) },
    timestamper?.stamp,
  );
  await pause();
  const { originalSha256, ...report } = job.report;
  const timestamps = timestamper?.stamped ?? [];
  const evidencePdf = await renderEvidencePdf({
    ...report,
    hashes: { original: originalSha256, signed: createHash('sha256').update(signedPdf).digest('hex') },
    timestamps,
  });
  return { signedPdf, evidencePdf, timestamps };
}

/** A job on a one-page document of its own, with a typed signature, a text and a date field and a short report. */
async function warmUpJob({ signer, timestamp }: WarmUp): Promise<ProduceJob> {
  const doc = await PDFDocument.create();
  doc.addPage([595.28, 841.89]);
  const at = new Date(0).toISOString();
  // A typed mark and an entered value, as most completions have: the handwriting face, its glyph
  // placement and the report's signer block are loaded and compiled here, not at the first request.
  const person = {
    reference: 'warm-up',
    name: 'Warm Up',
    email: 'warm-up@example.com',
    signingOrder: null,
    status: 'signed',
    signedAt: at,
    verification: '',
    verifiedAt: null,
    locale: 'en',
    marks: [{ kind: 'signature' as const, method: 'typed' as const, text: 'Warm Up' }],
    values: [{ label: 'company', value: 'warm-up', prefilled: false }],
  };
  return {
    original: await doc.save(),
    fields: [
      { type: 'signature', page: 1, x: 72, y: 600, width: 180, height: 40, value: null, mark: { method: 'typed', text: 'Warm Up' } },
      { type: 'text', page: 1, x: 72, y: 560, width: 180, height: 20, value: 'warm-up', mark: null },
      { type: 'date', page: 1, x: 72, y: 530, width: 180, height: 20, value: at.slice(0, 10), locale: 'en', mark: null },
    ],
    sealAt: 0,
    signer,
    timestamp,
    report: {
      evidenceRef: 'warm-up',
      generatedAt: at,
      requestId: 'warm-up',
      clientReference: 'warm-up',
      documentName: 'warm-up.pdf',
      status: 'completed',
      sequentialSigning: false,
      createdAt: at,
      completedAt: at,
      retentionExpiresAt: null,
      originalSha256: '0'.repeat(64),
      certificate: { subject: 'warm-up', sha256: '0'.repeat(64), serialNumber: '00', notBefore: at, notAfter: at },
      signers: [person],
      events: [{ id: 1, type: 'request_completed', actorType: 'system', actorEmail: '', createdAt: at }],
      chain: { head: '0'.repeat(64), count: 1 },
    },
  };
}

/** Real jobs received so far: a warm-up stops at its next step once one came. */
let jobsReceived = 0;

/**
 * Produces once for a made-up document, letting queued messages in between its steps: a real job
 * that arrived before or arrives meanwhile goes alone (the job itself warms what it runs).
 */
async function warmUp(warm: WarmUp): Promise<void> {
  const seen = jobsReceived;
  if (seen > 0) return;
  const giveWay = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    if (jobsReceived !== seen) throw new Error('a job came: the warm-up stops');
  };
  await giveWay();
  await produce(await warmUpJob(warm), giveWay);
}

if (workerArguments(ARTIFACT_ENTRY)) {
  // pdf-lib reports recoverable damage on the console (a widget it cannot flatten: console.error); the
  // result says enough, and the server's log stays JSON. A failure of the job itself comes back as its answer.
  console.warn = () => {};
  console.log = () => {};
  console.error = () => {};
  /** The answer's bytes in buffers of their own, moved to the server rather than copied. */
  type Owned = ProducedArtifacts & { signedPdf: Uint8Array<ArrayBuffer>; evidencePdf: Uint8Array<ArrayBuffer> };
  serveCalls<ProduceRequest, Owned, never, WarmUpNote>({
    async call(request) {
      jobsReceived += 1;
      if (request.fault) return fail(request.fault);
      const result = await produce(request.job);
      // The sealed PDF is usually a Buffer in Node's pool, which cannot be transferred.
      return { ...result, signedPdf: ownedBytes(result.signedPdf), evidencePdf: ownedBytes(result.evidencePdf) };
    },
    transfer: (result) => transferList(result.signedPdf, result.evidencePdf),
    // A warm-up that fails changes nothing: the first job meets the same failure and reports it.
    note: (note) => void warmUp(note.warm).catch(() => {}),
  });
}

/** Ends this worker the way a real fault would: an uncaught error, an exit, or running out of heap. */
function fail(fault: ArtifactWorkerFault): Promise<never> {
  if (fault === 'exit') process.exit(70);
  if (fault === 'throw') {
    setImmediate(() => {
      throw new Error('injected artifact worker fault');
    });
    return new Promise(() => {});
  }
  const hoard: number[][] = [];
  for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i));
}
