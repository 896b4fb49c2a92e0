/**
 * Sealing (time and peak memory) of a 1-page and an ~8 MiB PDF, with the compiled code, each case in a
 * fresh process (so its peak RSS is that case's alone): seal only (load, placeholder, save, CMS
 * signature, B-B), the seal's timestamp alone (the built-in authority's token over a signature value,
 * then its check for the evidence: what B-T adds) and the whole artifact production (stamp, B-T seal,
 * evidence report). Run by bench/run.ts; the child is this file run again with PARAPH_BENCH_SEAL set.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PDFDocument } from '@cantoo/pdf-lib';
import { track } from './proc.js';
import { ROOT } from './serve.js';
import { median } from './stats.js';

interface SealRun {
  bytes: number;
  sealMs: number[];
  timestampMs: number[];
  produceMs: number[];
  baselineRssMb: number;
  peakRssMb: number;
}

async function sealChild(pdfFile: string, runs: number): Promise<void> {
  const dist = (file: string) => import(pathToFileURL(path.join(ROOT, 'dist', file)).href);
  const { loadOrCreateSigningIdentity, loadOrCreateTsaIdentity } = await dist('pdf/certificate.js');
  const { sealTimestamper } = await dist('pdf/tsa-seal.js');
  const { createSealer } = await dist('platform/crypto/sealed.js');
  const { addSealPlaceholder, sealPdf } = await dist('pdf/seal.js');
  const { produce } = await dist('pdf/artifact-worker.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-bench-'));
  const sealer = createSealer(randomBytes(32), 'secrets');
  const identity = await loadOrCreateSigningIdentity(dir, sealer, new Date());
  const tsa = await loadOrCreateTsaIdentity(dir, sealer, new Date());
  const timestamp = { authority: 'built-in', certificateDer: tsa.certificateDer, privateKeyDer: tsa.privateKeyDer };
  fs.rmSync(dir, { recursive: true, force: true });
  const original = fs.readFileSync(pdfFile);
  const signer = { certificateDer: identity.certificateDer, privateKey: identity.privateKeyDer };
  const baselineRssMb = process.memoryUsage().rss / 2 ** 20;
  const sealMs: number[] = [];
  const timestampMs: number[] = [];
  const produceMs: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    let started = performance.now();
    const doc = await PDFDocument.load(original, { updateMetadata: false });
    addSealPlaceholder(doc, new Date(), 'bench');
    await sealPdf(await doc.save({ useObjectStreams: false }), signer);
    sealMs.push(performance.now() - started);
    // What B-T adds to a seal: a token over a 2048-bit signature value, and its check.
    const signatureValue = randomBytes(256);
    started = performance.now();
    const { stamp, stamped } = sealTimestamper(timestamp, () => new Date());
    await stamp(signatureValue);
    timestampMs.push(performance.now() - started);
    if (stamped[0]?.verificationStatus !== 'verified') throw new Error(`the bench's timestamp is ${stamped[0]?.verificationStatus}`);
    started = performance.now();
    await produce({
      original,
      fields: [{ type: 'signature', page: 1, x: 50, y: 720, width: 200, height: 50, value: null, mark: { method: 'typed', text: 'Ada Lovelace' } }],
      sealAt: Date.now(),
      signer: { certificateDer: identity.certificateDer, privateKeyDer: identity.privateKeyDer, name: 'bench' },
      timestamp,
      report: {
        evidenceRef: 'EVD-BENCH',
        generatedAt: new Date().toISOString(),
        requestId: 'bench',
        clientReference: 'bench',
        documentName: 'bench.pdf',
        status: 'completed',
        sequentialSigning: false,
        createdAt: new Date().toISOString(),
        completedAt: new Date().toISOString(),
        retentionExpiresAt: null,
        originalSha256: '0'.repeat(64),
        certificate: {
          subject: identity.subject,
          sha256: identity.sha256,
          serialNumber: identity.serialNumber,
          notBefore: identity.notBefore,
          notAfter: identity.notAfter,
        },
        signers: [
          {
            reference: 'client',
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            signingOrder: null,
            status: 'signed',
            signedAt: new Date().toISOString(),
            verification: '',
            verifiedAt: null,
          },
        ],
        events: Array.from({ length: 6 }, (_, n) => ({ id: n + 1, type: 'event', actorType: 'system', actorEmail: '', createdAt: new Date().toISOString() })),
        chain: { head: '0'.repeat(64), count: 6 },
      },
    });
    produceMs.push(performance.now() - started);
  }
  const result: SealRun = { bytes: original.length, sealMs, timestampMs, produceMs, baselineRssMb, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

export interface SealingResult {
  label: string;
  bytes: number;
  runs: number;
  sealWarmMs: number;
  sealFirstMs: number;
  /** The built-in authority's token and its check, alone (goal: 5 ms warm). */
  timestampWarmMs: number;
  timestampFirstMs: number;
  produceWarmMs: number;
  produceFirstMs: number;
  peakRssMb: number;
}

export async function benchSealing(label: string, pdf: Uint8Array, runs: number): Promise<SealingResult> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-bench-')), `${label}.pdf`);
  fs.writeFileSync(file, pdf);
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, PARAPH_BENCH_SEAL: file, PARAPH_BENCH_SEAL_RUNS: String(runs) },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (code !== 0) throw new Error(`sealing bench for ${label} exited with ${code}`);
  const run = JSON.parse(out) as SealRun;
  const warm = (xs: number[]) => median(xs.length > 1 ? xs.slice(1) : xs);
  const result: SealingResult = {
    label,
    bytes: run.bytes,
    runs,
    sealWarmMs: warm(run.sealMs),
    sealFirstMs: run.sealMs[0] ?? NaN,
    timestampWarmMs: warm(run.timestampMs),
    timestampFirstMs: run.timestampMs[0] ?? NaN,
    produceWarmMs: warm(run.produceMs),
    produceFirstMs: run.produceMs[0] ?? NaN,
    peakRssMb: run.peakRssMb,
  };
  console.log(
    `seal ${label} (${(run.bytes / 2 ** 20).toFixed(2)} MiB): seal only ${result.sealWarmMs.toFixed(0)} ms warm (first ${result.sealFirstMs.toFixed(0)} ms); ` +
      `its timestamp (B-T) ${result.timestampWarmMs.toFixed(1)} ms warm (first ${result.timestampFirstMs.toFixed(1)} ms); ` +
      `stamp + B-T seal + evidence report ${result.produceWarmMs.toFixed(0)} ms warm (first ${result.produceFirstMs.toFixed(0)} ms); ` +
      `peak RSS ${run.peakRssMb.toFixed(0)} MiB (${run.baselineRssMb.toFixed(0)} MiB before the first run; ${runs} runs)`,
  );
  return result;
}

if (process.env.PARAPH_BENCH_SEAL) await sealChild(process.env.PARAPH_BENCH_SEAL, Number(process.env.PARAPH_BENCH_SEAL_RUNS ?? '5'));
