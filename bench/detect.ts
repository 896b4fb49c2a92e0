/**
 * Field detection through the real binary: milliseconds per page for text pages and for scanned (OCR)
 * pages, as POST /detect-fields reports them in `stats`, plus the wall time of the calls. Run by
 * bench/run.ts (`npm run bench`) after the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import { startServe } from './serve.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = (name: string) => fs.readFileSync(path.join(ROOT, 'fixtures', name));

interface Stats {
  pageCount: number;
  nativeTextPages: number;
  ocrPages: number;
  scannedPages: number;
  extractionMs: number;
  detectionMs: number;
}

export async function benchDetection(): Promise<void> {
  // Through bench/serve.ts, so this serve's peak RSS (and its analysis and OCR processes') is reported too.
  const serve = await startServe({ scenario: 'field detection' });
  try {
    const auth = { authorization: `Bearer ${serve.key}` };
    const detect = async (file: string | Uint8Array, locale?: string): Promise<{ stats: Stats; wallMs: number }> => {
      const form = new FormData();
      form.append('document', new Blob([typeof file === 'string' ? fixture(file) : file], { type: 'application/pdf' }), 'document.pdf');
      const signer = { reference: 'client', email: 'client@example.com', order: 1, ...(locale ? { locale } : {}) };
      form.append('request', JSON.stringify({ client_reference: `bench-${Math.random()}`, signers: [signer] }));
      const created = await fetch(`${serve.api}/signature-requests`, { method: 'POST', headers: auth, body: form });
      if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
      const { id } = (await created.json()) as { id: string };
      const started = performance.now();
      const answer = await fetch(`${serve.api}/signature-requests/${id}/detect-fields`, { method: 'POST', headers: auth });
      if (answer.status !== 200) throw new Error(`detect-fields answered ${answer.status}: ${await answer.text()}`);
      const body = (await answer.json()) as { stats: Stats };
      return { stats: body.stats, wallMs: performance.now() - started };
    };

    const cold = await detect('contract.pdf');
    console.log(`detect-fields, first call of a fresh serve (starts the analysis process): ${cold.wallMs.toFixed(0)} ms for 2 text pages`);
    const textDocs = ['contract.pdf', 'detection/en-letter-no-fields.pdf', 'detection/fr-paraphes.pdf', 'detection/acroform.pdf', 'detection/en-table.pdf'];
    let pages = 0;
    let ms = 0;
    let wall = 0;
    for (let round = 0; round < 4; round++) {
      for (const file of textDocs) {
        const r = await detect(file);
        pages += r.stats.nativeTextPages;
        ms += r.stats.extractionMs + r.stats.detectionMs;
        wall += r.wallMs;
      }
    }
    console.log(
      `detect-fields, text pages: ${(ms / pages).toFixed(1)} ms per page analysed, ${(wall / pages).toFixed(1)} ms per page end to end (${pages} pages)`,
    );
    // A document over 2 MiB is its analysis process's last: the next process starts while it is read, and reads a small document of
    // its own before the next document comes (docs/detection.md, "Isolation and limits").
    const large = await PDFDocument.load(fixture('contract.pdf'));
    await large.attach(randomBytes(3 * 2 ** 20), 'padding.bin', { mimeType: 'application/octet-stream' });
    await detect(await large.save());
    const after = await detect('contract.pdf');
    const again = await detect('contract.pdf');
    console.log(
      `detect-fields, the document after one over 2 MiB (a new analysis process): ${after.wallMs.toFixed(0)} ms for 2 text pages, ` +
        `${again.wallMs.toFixed(0)} ms for the same document from that process again`,
    );
    for (const [file, locale] of [
      ['detection/scanned-en.pdf', 'en'],
      ['detection/scanned-fr.pdf', 'fr'],
      ['detection/scanned-ar.pdf', 'ar'],
    ] as const) {
      const first = await detect(file, locale);
      const warm = await detect(file, locale);
      console.log(
        `detect-fields, scanned page (${locale}): ${warm.stats.extractionMs.toFixed(0)} ms per OCR page warm (render at 200 dpi, rules, tesseract), ` +
          `${first.stats.extractionMs.toFixed(0)} ms the first time (starts the ${locale} OCR worker); ${warm.wallMs.toFixed(0)} ms end to end`,
      );
    }
    const none = await detect('detection/scanned-ar.pdf');
    console.log(`detect-fields, scanned Arabic page without a locale hint (English tried first): ${none.stats.extractionMs.toFixed(0)} ms`);
  } finally {
    await serve.stop();
  }
}
