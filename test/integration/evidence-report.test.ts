// The evidence report as a reader sees it: rendered by the real server after real signatures, read
// back with poppler (pdftotext for the words, their positions for reading order, pdftoppm for the
// pages kept under test-artifacts/ to look at).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { latestOtpCode } from '../../src/features/mail/caught-emails.js';
import { paraph } from '../helpers/cli.js';
import { activate, auditOf, createRequest, signerAction, status } from '../helpers/flows.js';
import { wrongCodeFor } from '../helpers/mail.js';
import { pngOf } from '../helpers/png.js';
import { json, useServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'test-artifacts');
const CONTRACT = fs.readFileSync(path.join(ROOT, 'fixtures/contract.pdf'));
const RAW_CODES = ['request_created', 'request_activated', 'signer_viewed', 'signer_signed', 'request_completed', 'otp_sent', 'otp_failed', 'otp_verified'];

/** An RGBA PNG of a wavy stroke: what a drawn signature sends. */
function scribble(): string {
  return pngOf(240, 80, (x, y) => Math.abs(y - 40 - 25 * Math.sin(x / 18) * Math.cos(x / 53)) < 3);
}

/** Signs as the signing page does; with `wrongCodeFirst`, a wrong email code is entered before the right one. */
async function sign(server: TestServer, link: string, body: Json, options: { wrongCodeFirst?: boolean } = {}): Promise<void> {
  const view = await json<Json>(await signerAction(link, 'view'));
  assert.equal(view.state, 'open', JSON.stringify(view));
  if (view.verification_required) {
    assert.equal((await signerAction(link, 'otp')).status, 200);
    const code = latestOtpCode(server.running.ctx, view.request.id, view.signer.reference) as string;
    assert.ok(code, 'the catcher holds the code');
    if (options.wrongCodeFirst) {
      const wrong = wrongCodeFor(code);
      assert.notEqual((await json<Json>(await signerAction(link, 'otp/verify', { code: wrong }))).verified, true);
    }
    assert.equal((await json<Json>(await signerAction(link, 'otp/verify', { code }))).verified, true);
  }
  const response = await signerAction(link, 'sign', body);
  assert.equal(response.status, 200, await response.clone().text());
}

async function evidencePdfOf(server: TestServer, id: string): Promise<Buffer> {
  const deadline = Date.now() + 90_000;
  while (!(await status(server, id)).artifacts.evidence_pdf) {
    if (Date.now() > deadline) assert.fail(`no artifacts for ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const response = await server.call('GET', `/v1/signature-requests/${id}/artifacts/evidence.pdf`);
  assert.equal(response.status, 200);
  return Buffer.from(await response.arrayBuffer());
}

/** Writes the report under test-artifacts/, renders every page to PNG, answers the file and its pages' text. */
function keepAndRender(name: string, pdf: Buffer): { file: string; pages: string[] } {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  for (const old of fs.readdirSync(OUT).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'))) fs.rmSync(path.join(OUT, old));
  execFileSync('pdftoppm', ['-r', '80', '-png', file, path.join(OUT, name)]);
  const count = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1]);
  const pngs = fs.readdirSync(OUT).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'));
  assert.equal(pngs.length, count, 'every page rendered');
  for (const png of pngs) assert.ok(fs.statSync(path.join(OUT, png)).size > 5000, `${png} has content`);
  const pages = Array.from({ length: count }, (_, i) =>
    execFileSync('pdftotext', ['-layout', '-f', String(i + 1), '-l', String(i + 1), file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
  );
  return { file, pages };
}

/** The words of one page with their left edges (pdftotext -bbox). */
function wordsOf(file: string, page: number): Array<{ x: number; y: number; text: string }> {
  const html = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' });
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    text: (m[3] ?? '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
  }));
}

/** Where a signer's line puts the name and the email on a page: the first line holding both. */
function personLine(file: string, page: number, nameWord: string, email: string): { name: number; email: number } {
  const words = wordsOf(file, page);
  for (const mail of words.filter((w) => w.text.includes(email))) {
    // -bbox gives Arabic words in visual order, letters right to left.
    const reversed = Array.from(nameWord).reverse().join('');
    const name = words.find((w) => Math.abs(w.y - mail.y) < 2 && (w.text.includes(nameWord) || w.text.includes(reversed)));
    if (name) return { name: name.x, email: mail.x };
  }
  assert.fail(`no line with ${nameWord} and ${email} on page ${page}`);
}

const sectionStart = (pages: string[], title: string) => pages.findIndex((p) => p.includes(title));

test('English-only request: readable events, the marks with their method, the values entered, the chain head explained', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(
    server,
    {
      signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1, locale: 'en' }],
      fields: [
        { signer_reference: 'client', type: 'signature', page: 2, x: 64, y: 560, width: 200, height: 50 },
        { signer_reference: 'client', type: 'initials', page: 1, x: 480, y: 770, width: 60, height: 30 },
        { signer_reference: 'client', type: 'text', name: 'company', page: 2, x: 64, y: 612, width: 200, height: 18 },
        {
          signer_reference: 'client',
          type: 'text',
          name: 'notice',
          value: 'Read and approved',
          read_only: true,
          page: 1,
          x: 64,
          y: 700,
          width: 200,
          height: 18,
        },
      ],
    },
    { document: { bytes: CONTRACT, filename: 'contract.pdf' } },
  );
  const { signers } = await activate(server, id);
  await sign(server, signers[0]?.signing_url as string, {
    fields: { company: 'Northwind Trading Ltd' },
    signature: { type: 'typed', text: 'Ada Lovelace' },
    initials: { type: 'drawn', image: scribble() },
  });
  const pdf = await evidencePdfOf(server, id);
  const { file, pages } = keepAndRender('evidence-report-en', pdf);
  const report = pages.join(' ');

  assert.equal(sectionStart(pages, 'Rapport de preuve'), -1, 'no French section without a French signer');
  assert.ok(!report.includes('تقرير'), 'no Arabic section without an Arabic signer');
  for (const fact of [
    'Evidence report',
    'Ada Lovelace <ada@example.com>',
    'Language English (en)',
    'Signature typed',
    'Initials drawn',
    'Values',
    'company Northwind Trading Ltd',
    'notice Read and approved (prefilled by the sender)',
    'Request created',
    'Request sent to the signers',
    'Document opened by the signer',
    'Signed by the signer',
    'Request completed',
    'Timestamp',
  ]) {
    assert.ok(report.includes(fact), `the report says "${fact}"`);
  }
  for (const code of RAW_CODES) assert.ok(!report.includes(code), `no raw event code "${code}"`);

  // The chain head is the last event the report covers; the event that follows records the report's hash.
  const trail = auditOf(server, id) as Json[];
  const generated = trail.at(-1) as Json;
  assert.equal(generated.type, 'artifacts_generated');
  const covered = trail.length - 1;
  assert.ok(report.includes(`The ${covered} events above`));
  assert.ok(report.includes(`The chain head below is the hash of event #${covered} (Request completed,`));
  assert.ok(
    report.includes(`Storing this report adds event #${covered + 1}, Artifacts generated (artifacts_generated), which records the SHA-256 of this report`),
  );
  assert.ok(report.includes(`So paraph audit verify reports ${covered + 1} events`));
  assert.ok(report.includes(`Covers events #1 - #${covered}`));
  assert.ok(report.includes(`Chain head ${generated.prev_hash}`));
  // …and the command answers as the report says it will.
  const verified = await paraph(['audit', 'verify', id, '--data-dir', server.dataDir]);
  assert.equal(verified.code, 0, verified.stderr);
  assert.match(verified.stdout, new RegExp(`${covered + 1} events, hash chain intact`));
  assert.ok(verified.stdout.includes(generated.hash));
  assert.equal(JSON.parse(generated.data).evidence_pdf_sha256, createHash('sha256').update(pdf).digest('hex'), "that event holds this report's hash");

  const line = personLine(file, sectionStart(pages, 'Signers') + 1, 'Lovelace', 'ada@example.com');
  assert.ok(line.name < line.email, 'the name comes before the email, left to right');
});

test('French and Arabic signers: a section in each language, right to left in Arabic, names before emails in every direction', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(
    server,
    {
      signers: [
        { reference: 'seller', name: 'ليلى حداد', email: 'layla@example.com', order: 1, locale: 'ar', verification: 'email_otp' },
        { reference: 'buyer', name: 'Jeanne Dupré', email: 'jeanne@example.com', order: 2, locale: 'fr' },
      ],
      fields: [
        { signer_reference: 'seller', type: 'signature', page: 2, x: 64, y: 560, width: 200, height: 50 },
        { signer_reference: 'seller', type: 'text', name: 'company', page: 2, x: 64, y: 612, width: 200, height: 18 },
        { signer_reference: 'buyer', type: 'signature', page: 2, x: 320, y: 560, width: 200, height: 50 },
        { signer_reference: 'buyer', type: 'text', name: 'ville', page: 2, x: 320, y: 612, width: 200, height: 18 },
      ],
    },
    { document: { bytes: CONTRACT, filename: 'contract.pdf' } },
  );
  const { signers } = await activate(server, id);
  const link = (reference: string) => signers.find((s) => s.reference === reference)?.signing_url as string;
  await sign(server, link('seller'), { fields: { company: 'شركة أكمي' }, signature: { type: 'typed', text: 'ليلى حداد' } }, { wrongCodeFirst: true });
  await sign(server, link('buyer'), { fields: { ville: 'Lyon' }, signature: { type: 'drawn', image: scribble() } });
  const { file, pages } = keepAndRender('evidence-report-fr-ar', await evidencePdfOf(server, id));
  const report = pages.join(' ');

  const english = sectionStart(pages, 'Evidence report');
  const french = sectionStart(pages, 'Rapport de preuve');
  const arabic = pages.findIndex((p) => p.includes('EVD-') && p.includes('تقرير'));
  assert.ok(english === 0 && french > english && arabic > french, `English, French, then Arabic (${english}, ${french}, ${arabic})`);
  const en = pages.slice(english, french).join(' ');
  const fr = pages.slice(french, arabic).join(' ');
  const ar = pages.slice(arabic).join(' ');
  assert.ok(en.includes('This report is also given in French (Français) and Arabic'));

  for (const fact of [
    'Wrong email code entered',
    'Email code verified',
    'Signature typed',
    'Signature drawn',
    'company',
    'ville Lyon',
    'Jeanne Dupré <jeanne@example.com>',
    'Timestamp',
  ]) {
    assert.ok(en.includes(fact), `English: "${fact}"`);
  }
  for (const fact of [
    'Traduction de la version anglaise, qui fait foi.',
    'Signataires',
    'Code e-mail erroné saisi',
    'Document ouvert par le signataire',
    'Signé par le signataire',
    'Demande terminée',
    'Signature saisie au clavier',
    'Signature dessinée',
    'Valeurs',
    'ville Lyon',
    'Horodatage',
    'Tête de chaîne',
    'qui consigne le SHA-256 de ce rapport',
    'Langue arabe (ar)',
  ]) {
    assert.ok(fr.includes(fact), `French: "${fact}"`);
  }
  // Read from the text layer: the Arabic letters come back whole even though the artifact worker drew
  // Arabic (the signed PDF's stamp) with the same parsed font just before.
  for (const fact of [
    'سجل التدقيق',
    'رأس السلسلة',
    'الموقّعون',
    'إدخال رمز بريد إلكتروني خاطئ',
    'مكتوب بلوحة المفاتيح',
    'مرسوم باليد',
    'الختم الزمني',
    'القيم',
    'شركة أكمي',
  ]) {
    assert.ok(ar.includes(fact), `Arabic: "${fact}"`);
  }
  assert.ok(ar.includes('artifacts_generated') && ar.includes('paraph audit verify'), 'Arabic: the chain-head wording');
  for (const code of RAW_CODES) assert.ok(!report.includes(code), `no raw event code "${code}"`);

  // Reading order of "name <email>": left to right in English and French, right to left in Arabic.
  const page = (from: number, title: string) => from + pages.slice(from).findIndex((p) => p.includes(title)) + 1;
  const inEnglish = personLine(file, page(english, 'layla@example.com'), 'حداد', 'layla@example.com');
  assert.ok(inEnglish.name < inEnglish.email, 'English section: the Arabic name is left of the email');
  const inFrench = personLine(file, page(french, 'layla@example.com'), 'حداد', 'layla@example.com');
  assert.ok(inFrench.name < inFrench.email, 'French section: the Arabic name is left of the email');
  const inArabic = personLine(file, page(arabic, 'layla@example.com'), 'حداد', 'layla@example.com');
  assert.ok(inArabic.name > inArabic.email, 'Arabic section: the name is right of the email, read first');
  const latinInArabic = personLine(file, page(arabic, 'jeanne@example.com'), 'Dupré', 'jeanne@example.com');
  assert.ok(latinInArabic.name > latinInArabic.email, 'Arabic section: a Latin name is read first too');
  // Arabic lines are set against the right margin.
  const heading = wordsOf(file, arabic + 1).find((w) => w.text.includes('EVD-'));
  assert.ok(heading && heading.x > 150, `the Arabic reference line starts at the right (x = ${heading?.x})`);
});
