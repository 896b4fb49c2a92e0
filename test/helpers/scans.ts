/**
 * Realistic scans made from the real PDFs of the development corpus (../shared/corpus/detection, or env
 * PARAPH_DETECTION_CORPUS), at test or bench time: a page rendered by pdftoppm, turned by about a degree,
 * laid on a grey sheet with noise and specks, JPEG-compressed and embedded alone in an image-only PDF.
 * The "photo" kind adds uneven light, a warm tint, a larger tilt and a lower resolution, as a phone
 * picture of a sheet would have. Nothing made here is committed: the corpus is data from other projects.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { PDFDocument } from '@cantoo/pdf-lib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The corpus directory, or undefined when it is not there (the tests needing it then skip). */
export function detectionCorpus(): string | undefined {
  const dir = process.env.PARAPH_DETECTION_CORPUS ?? path.join(ROOT, '..', 'shared', 'corpus', 'detection');
  return fs.existsSync(dir) ? dir : undefined;
}

export interface ScanOptions {
  /** A PDF of the corpus (file name). */
  file: string;
  /** 1-based pages, each becoming one page of the scan (default [1]). */
  pages?: number[];
  /** `scan`: a flatbed scan in grey; `photo`: a phone picture of the sheet. */
  kind?: 'scan' | 'photo';
  /** Scanning resolution (default 200 for a scan, 150 for a photo). */
  dpi?: number;
  /** Tilt in degrees (default 1 for a scan, 2.5 for a photo). */
  degrees?: number;
  /** JPEG quality, 0 to 1 (default 0.6). */
  quality?: number;
  seed?: number;
}

/** A small seeded generator, so that the same options always give the same scan. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** One page of `file` as a scanned (JPEG) image: its bytes and the page size in points. */
async function scanImage(
  file: string,
  page: number,
  o: Required<Omit<ScanOptions, 'file' | 'pages'>>,
): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-scan-'));
  try {
    execFileSync('pdftoppm', ['-f', String(page), '-l', String(page), '-r', String(o.dpi), '-gray', '-png', '-singlefile', file, path.join(dir, 'page')]);
    const image = await loadImage(fs.readFileSync(path.join(dir, 'page.png')));
    const { width, height } = image;
    const rnd = random(o.seed + page);
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    // The sheet: grey paper, or for a photo a tinted sheet lit unevenly from one corner.
    if (o.kind === 'photo') {
      const light = ctx.createLinearGradient(0, 0, width, height);
      light.addColorStop(0, 'rgb(236,230,214)');
      light.addColorStop(1, 'rgb(150,142,128)');
      ctx.fillStyle = light;
    } else {
      ctx.fillStyle = 'rgb(222,222,222)';
    }
    ctx.fillRect(0, 0, width, height);
    ctx.save();
    ctx.translate(width / 2, height / 2);
    ctx.rotate((o.degrees * Math.PI) / 180);
    ctx.translate(-width / 2, -height / 2);
    // Ink darkens the paper: white stays the paper's colour.
    ctx.globalCompositeOperation = 'multiply';
    ctx.drawImage(image, 0, 0);
    ctx.restore();
    // Sensor noise, and dust specks.
    const data = ctx.getImageData(0, 0, width, height);
    const px = data.data;
    const amplitude = o.kind === 'photo' ? 28 : 18;
    for (let i = 0; i < px.length; i += 4) {
      const n = (rnd() + rnd() - 1) * amplitude;
      px[i] = clamp((px[i] as number) + n);
      px[i + 1] = clamp((px[i + 1] as number) + n);
      px[i + 2] = clamp((px[i + 2] as number) + n);
    }
    const specks = Math.round((width * height) / 4000);
    for (let k = 0; k < specks; k++) {
      const x = Math.floor(rnd() * (width - 2));
      const y = Math.floor(rnd() * (height - 2));
      const v = rnd() < 0.8 ? 60 : 250;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = ((y + dy) * width + x + dx) * 4;
        px[i] = px[i + 1] = px[i + 2] = v;
      }
    }
    ctx.putImageData(data, 0, 0);
    const jpeg = Buffer.from(await canvas.encode('jpeg', Math.round(o.quality * 100)));
    return { jpeg, width: (width * 72) / o.dpi, height: (height * 72) / o.dpi };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

function settings(options: ScanOptions): Required<Omit<ScanOptions, 'file' | 'pages'>> {
  const kind = options.kind ?? 'scan';
  return {
    kind,
    dpi: options.dpi ?? (kind === 'photo' ? 150 : 200),
    degrees: options.degrees ?? (kind === 'photo' ? 2.5 : 1),
    quality: options.quality ?? 0.6,
    seed: options.seed ?? 7,
  };
}

function corpusFile(file: string): string {
  const corpus = detectionCorpus();
  if (!corpus) throw new Error('the detection corpus is not there (set PARAPH_DETECTION_CORPUS)');
  return path.join(corpus, file);
}

/** The scanned image of the first of `options.pages` (a JPEG) and its page size in points, to place in a PDF of one's own. */
export function makeScanImage(options: ScanOptions): Promise<{ jpeg: Buffer; width: number; height: number }> {
  return scanImage(corpusFile(options.file), options.pages?.[0] ?? 1, settings(options));
}

/** An image-only PDF scanned from pages of a corpus file. */
export async function makeScan(options: ScanOptions): Promise<Uint8Array> {
  const file = corpusFile(options.file);
  const o = settings(options);
  const doc = await PDFDocument.create();
  for (const page of options.pages ?? [1]) {
    const scan = await scanImage(file, page, o);
    const image = await doc.embedJpg(scan.jpeg);
    doc.addPage([scan.width, scan.height]).drawImage(image, { x: 0, y: 0, width: scan.width, height: scan.height });
  }
  return doc.save();
}

/** The scans the OCR tests and the OCR benchmark use. */
export const SCANS: ReadonlyArray<{ name: string; options: ScanOptions }> = [
  { name: 'consent form, A4 page of text with its signing block, scan', options: { file: 'graham28-consent_form.pdf', pages: [2] } },
  { name: 'consent form, US letter page, scan', options: { file: 'rinraja-consent_form.pdf', pages: [4] } },
  { name: 'real-estate contract signing page, photo', options: { file: 'arkansas-sample_contract.pdf', pages: [16], kind: 'photo' } },
  { name: 'real-estate contract, last two pages, scan', options: { file: 'arkansas-sample_contract.pdf', pages: [16, 17] } },
];
